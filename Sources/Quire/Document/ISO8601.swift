import Foundation

/// Reads and writes the date text Quire stores: ISO-8601 in UTC with milliseconds
/// (`2026-01-02T03:04:05.678Z`). Reading accepts any ISO-8601 date or date-time: with or
/// without seconds and fraction, `Z` or an offset (`+02:00`, `+0200`, `+02`), or a date alone.
enum ISO8601 {
    /// Formats `date` as UTC with milliseconds.
    static func string(from date: Date) -> String {
        var milliseconds = EpochMilliseconds.of(date)
        var seconds = milliseconds.quotientFloor(1000)
        milliseconds -= seconds * 1000
        let days = seconds.quotientFloor(86_400)
        seconds -= days * 86_400
        let (year, month, day) = civilDate(fromDays: days)
        let hour = seconds / 3600
        let minute = (seconds % 3600) / 60
        let second = seconds % 60
        return
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(milliseconds, 3))Z"
    }

    /// Parses ISO-8601 text, or returns nil. The time is counted in whole milliseconds (digits
    /// past the third of a fraction are dropped), never through floating-point seconds.
    static func date(from text: String) -> Date? {
        milliseconds(from: text).map(EpochMilliseconds.date)
    }

    /// Parses ISO-8601 text into milliseconds since 1970, or returns nil.
    static func milliseconds(from text: String) -> Int64? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.take("-"),
            let month = scanner.number(digits: 2), scanner.take("-"),
            let day = scanner.number(digits: 2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var milliseconds = daysFromCivil(year: year, month: month, day: day) * 86_400_000
        if scanner.atEnd { return milliseconds }
        guard scanner.take("T") || scanner.take("t") || scanner.take(" ") else { return nil }
        guard let hour = scanner.number(digits: 2), scanner.take(":"), let minute = scanner.number(digits: 2),
            hour < 24, minute < 60
        else { return nil }
        var second: Int64 = 0
        var fraction: Int64 = 0
        if scanner.take(":") {
            guard let parsed = scanner.number(digits: 2), parsed <= 60 else { return nil }
            second = parsed
            if scanner.take(".") || scanner.take(",") {
                var digits = 0
                while let digit = scanner.digit() {
                    if digits < 3 { fraction = fraction * 10 + digit }
                    digits += 1
                }
                for _ in min(digits, 3)..<3 { fraction *= 10 }
                guard digits > 0 else { return nil }
            }
        }
        milliseconds += (hour * 3600 + minute * 60 + second) * 1000 + fraction
        if scanner.take("Z") || scanner.take("z") {
            return scanner.atEnd ? milliseconds : nil
        }
        if scanner.atEnd { return milliseconds }
        let sign: Int64
        if scanner.take("+") {
            sign = 1
        } else if scanner.take("-") {
            sign = -1
        } else {
            return nil
        }
        guard let offsetHours = scanner.number(digits: 2) else { return nil }
        var offsetMinutes: Int64 = 0
        if scanner.take(":") {
            guard let minutes = scanner.number(digits: 2) else { return nil }
            offsetMinutes = minutes
        } else if let minutes = scanner.number(digits: 2) {
            offsetMinutes = minutes
        }
        guard scanner.atEnd, offsetHours < 24, offsetMinutes < 60 else { return nil }
        milliseconds -= sign * (offsetHours * 3600 + offsetMinutes * 60) * 1000
        return milliseconds
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int64? {
            guard index < bytes.count, (48...57).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int64(bytes[index] - 48)
        }

        mutating func number(digits: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }

    // Days since 1970-01-01 from a proleptic Gregorian date, and back (Howard Hinnant's
    // published civil-calendar algorithms).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = y.quotientFloor(400)
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = z.quotientFloor(146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

extension Int64 {
    /// Division rounding towards negative infinity.
    fileprivate func quotientFloor(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
