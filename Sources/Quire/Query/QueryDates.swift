import Foundation

/// The SQL++ date functions, after LiteCore's (SQLiteN1QLFunctions.cc, "DATES", with
/// SQLiteDateTimeHelpers.hh and DateFormat.cc): ISO-8601 text or milliseconds since the epoch
/// in, ISO-8601 text (in an optional format) or milliseconds out.
///
/// One deliberate difference: a date written without an offset is read as UTC, where LiteCore
/// reads it in the device's time zone; only `MILLIS_TO_STR` uses the device's zone.
enum QueryDates {
    /// A date and time as written, with its offset from UTC when one is written.
    struct DateTime {
        var year: Int64
        var month: Int64
        var day: Int64
        var hour: Int64 = 0
        var minute: Int64 = 0
        var second: Int64 = 0
        var millisecond: Int64 = 0
        /// Minutes east of UTC; nil when none is written.
        var offset: Int64?

        /// Milliseconds since the epoch of the written wall-clock time, ignoring the offset.
        var wallMilliseconds: Int64 {
            let days = QueryDates.days(year: year, month: month, day: day)
            return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
        }

        /// Milliseconds since the epoch.
        var milliseconds: Int64 { wallMilliseconds - (offset ?? 0) * 60_000 }

        /// The UTC date and time of a timestamp.
        init(milliseconds: Int64) {
            let days = milliseconds.floorDivided(by: 86_400_000)
            var rest = milliseconds &- days &* 86_400_000
            (year, month, day) = QueryDates.civil(days: days)
            hour = rest / 3_600_000
            rest %= 3_600_000
            minute = rest / 60_000
            rest %= 60_000
            second = rest / 1000
            millisecond = rest % 1000
            offset = 0
        }

        init(year: Int64, month: Int64, day: Int64) {
            self.year = year
            self.month = month
            self.day = day
        }

        /// Reads `YYYY-MM-DD`, optionally followed by `T` or a space and `hh:mm[:ss[.fff]]`, and
        /// `Z` or `±hh[:mm]`; nil for anything else, including a day the month does not have
        /// (LiteCore's "30 days hath September" cases).
        static func parse(_ text: String) -> DateTime? {
            let bytes = Array(text.utf8)
            var index = 0
            func digits(_ count: Int) -> Int64? {
                guard index + count <= bytes.count else { return nil }
                var value: Int64 = 0
                for byte in bytes[index..<index + count] {
                    guard (48...57).contains(byte) else { return nil }
                    value = value * 10 + Int64(byte - 48)
                }
                index += count
                return value
            }
            func take(_ character: Character) -> Bool {
                guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
                index += 1
                return true
            }
            guard let year = digits(4), take("-"), let month = digits(2), take("-"), let day = digits(2),
                (1...12).contains(month), day >= 1, day <= QueryDates.daysIn(month: month, year: year)
            else { return nil }
            var result = DateTime(year: year, month: month, day: day)
            if index == bytes.count { return result }
            guard take("T") || take("t") || take(" "), let hour = digits(2), take(":"), let minute = digits(2),
                hour < 24, minute < 60
            else { return nil }
            result.hour = hour
            result.minute = minute
            if take(":") {
                guard let second = digits(2), second < 60 else { return nil }
                result.second = second
                if take(".") {
                    var scale: Int64 = 100
                    var count = 0
                    while index < bytes.count, (48...57).contains(bytes[index]) {
                        result.millisecond += Int64(bytes[index] - 48) * scale
                        scale /= 10
                        index += 1
                        count += 1
                    }
                    guard count > 0 else { return nil }
                }
            }
            if index == bytes.count { return result }
            if take("Z") || take("z") {
                result.offset = 0
                return index == bytes.count ? result : nil
            }
            let sign: Int64
            if take("+") {
                sign = 1
            } else if take("-") {
                sign = -1
            } else {
                return nil
            }
            guard let hours = digits(2), hours < 24 else { return nil }
            var minutes: Int64 = 0
            if take(":") {
                guard let parsed = digits(2) else { return nil }
                minutes = parsed
            } else if index < bytes.count {
                guard let parsed = digits(2) else { return nil }
                minutes = parsed
            }
            guard index == bytes.count, minutes < 60 else { return nil }
            result.offset = sign * (hours * 60 + minutes)
            return result
        }
    }

    /// What a format argument asks for (LiteCore's DateFormat): the date, the time (with
    /// milliseconds or not) and the offset (with a colon or not), in any sensible combination.
    struct Format {
        var date = true
        var separator: Character? = "T"
        var time = true
        var milliseconds = true
        /// nil: no offset; false: `+hhmm`; true: `+hh:mm`. UTC is always `Z`.
        var offsetColon: Bool? = false

        static let iso = Format()

        /// An example date (`1111-11-11T11:11:11.111+09:00`, parts may be left out) or
        /// `strftime` tokens (`%FT%T%z`); nil for anything else, which means the default.
        static func parse(_ text: String) -> Format? {
            if text.hasPrefix("%") { return parseTokens(Substring(text)) }
            var rest = Array(text)
            guard !rest.isEmpty else { return nil }
            var format = Format(date: false, separator: nil, time: false, milliseconds: false, offsetColon: nil)
            if rest.last == "Z" {
                format.offsetColon = false
                rest.removeLast()
            } else if rest.count >= 5 {
                let colon = rest[rest.count - 3] == ":"
                let start = rest.count - (colon ? 6 : 5)
                if start >= 0, rest[start] == "+" || rest[start] == "-" {
                    format.offsetColon = colon
                    rest.removeLast(rest.count - start)
                }
            }
            if rest.count >= 8 {
                let millis = rest[rest.count - 4] == "."
                if !millis || rest.count >= 12 {
                    let body = millis ? Array(rest.dropLast(4)) : rest
                    if body[body.count - 3] == ":", body[body.count - 6] == ":" {
                        format.time = true
                        format.milliseconds = millis
                        rest = Array(body.dropLast(8))
                    }
                }
            }
            if !rest.isEmpty, format.time {
                guard let last = rest.last, last == " " || last == "T" else { return nil }
                format.separator = last
                rest.removeLast()
            }
            if rest.count >= 10,
                (rest[rest.count - 3] == "-" && rest[rest.count - 6] == "-")
                    || (rest[rest.count - 3] == "/" && rest[rest.count - 6] == "/")
            {
                format.date = true
            }
            return format.validated()
        }

        private static func parseTokens(_ text: Substring) -> Format? {
            var rest = text
            var format = Format(date: false, separator: nil, time: false, milliseconds: false, offsetColon: nil)
            func take(_ token: String) -> Bool {
                guard rest.hasPrefix(token) else { return false }
                rest = rest.dropFirst(token.count)
                return true
            }
            if take("%F") || take("%Y-%m-%d") || take("%Y/%m/%d") {
                format.date = true
                if take("T") { format.separator = "T" } else if take(" ") { format.separator = " " }
            } else if rest.hasPrefix("%Y") {
                return nil
            }
            if take("%T") {
                format.time = true
                format.milliseconds = true
            } else if take("%H:%M:%S") {
                format.time = true
            }
            if format.time, take("%s") || take("%.s") { format.milliseconds = true }
            if take("%Ez") { format.offsetColon = true } else if take("%z") { format.offsetColon = false }
            guard rest.isEmpty else { return nil }
            return format.validated()
        }

        private func validated() -> Format? {
            if date && time { return separator == nil ? nil : self }
            if separator != nil { return nil }
            if offsetColon != nil && !time { return nil }
            return date || time ? self : nil
        }

        /// `timestamp` written at `offset` minutes east of UTC.
        func string(_ timestamp: Int64, offset: Int64) -> String {
            let local = DateTime(milliseconds: timestamp &+ offset &* 60_000)
            var text = ""
            if date {
                text += "\(pad(local.year, 4))-\(pad(local.month, 2))-\(pad(local.day, 2))"
            }
            if time {
                if date, let separator { text.append(separator) }
                text += "\(pad(local.hour, 2)):\(pad(local.minute, 2)):\(pad(local.second, 2))"
                if milliseconds && timestamp % 1000 != 0 { text += ".\(pad(local.millisecond, 3))" }
                if let colon = offsetColon {
                    if offset == 0 {
                        text += "Z"
                    } else {
                        let minutes = abs(offset)
                        text +=
                            (offset < 0 ? "-" : "+") + pad(minutes / 60, 2) + (colon ? ":" : "") + pad(minutes % 60, 2)
                    }
                }
            }
            return text
        }

        private func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(abs(value))
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
    }

    /// The parts DATE_DIFF_* and DATE_ADD_* count in.
    enum Component: String, CaseIterable {
        case millisecond, second, minute, hour, day, week, month, quarter, year, decade, century, millennium

        init?(_ name: JSONValue?) {
            guard case .string(let text)? = name else { return nil }
            var word = text.lowercased()
            if word.hasSuffix("s") { word.removeLast() }
            if word == "millennia" || word == "millenia" { word = "millennium" }
            if word == "centurie" { word = "century" }
            self.init(rawValue: word)
        }
    }

    // MARK: Functions

    static func evaluate(_ name: String, _ arguments: [JSONValue?]) -> JSONValue? {
        func format(_ index: Int) -> Format? {
            guard index < arguments.count, case .string(let text)? = arguments[index] else { return nil }
            return Format.parse(text)
        }
        switch name {
        case "MILLIS_TO_STR", "MILLIS_TO_UTC", "MILLIS_TO_TZ":
            guard let millis = milliseconds(arguments[0]) else { return .null }
            var offset: Int64 = 0
            if name == "MILLIS_TO_TZ" {
                guard let zone = milliseconds(arguments[1]), abs(zone) < 100_000 else { return .null }
                offset = zone
            } else if name == "MILLIS_TO_STR" {
                let date = Date(timeIntervalSince1970: Double(millis) / 1000)
                offset = Int64(TimeZone.current.secondsFromGMT(for: date) / 60)
            }
            let formatted = (format(name == "MILLIS_TO_TZ" ? 2 : 1) ?? .iso).string(millis, offset: offset)
            return .string(formatted)
        case "STR_TO_MILLIS":
            return dateTime(arguments[0]).map { .int($0.milliseconds) } ?? .null
        case "STR_TO_UTC", "STR_TO_TZ":
            guard let date = dateTime(arguments[0]) else { return .null }
            var offset: Int64 = 0
            if name == "STR_TO_TZ" {
                guard let zone = milliseconds(arguments[1]), abs(zone) < 100_000 else { return .null }
                offset = zone
            }
            return .string((format(name == "STR_TO_TZ" ? 2 : 1) ?? .iso).string(date.milliseconds, offset: offset))
        case "DATE_DIFF_STR", "DATE_DIFF_MILLIS":
            let left: DateTime
            let right: DateTime
            if name == "DATE_DIFF_STR" {
                guard let first = dateTime(arguments[0]), let second = dateTime(arguments[1]) else { return nil }
                (left, right) = (first, second)
            } else {
                guard let first = milliseconds(arguments[0]), let second = milliseconds(arguments[1]) else {
                    return nil
                }
                (left, right) = (DateTime(milliseconds: first), DateTime(milliseconds: second))
            }
            guard let component = Component(arguments[2]) else { return nil }
            return .int(difference(left, right, component))
        case "DATE_ADD_STR":
            guard let start = dateTime(arguments[0]), let amount = milliseconds(arguments[1]),
                let component = Component(arguments[2])
            else { return nil }
            let result = add(start, amount, component)
            return .string((format(3) ?? .iso).string(result, offset: start.offset ?? 0))
        case "DATE_ADD_MILLIS":
            guard let start = milliseconds(arguments[0]), let amount = milliseconds(arguments[1]),
                let component = Component(arguments[2])
            else { return nil }
            return .int(add(DateTime(milliseconds: start), amount, component))
        default:
            return nil
        }
    }

    private static func dateTime(_ value: JSONValue?) -> DateTime? {
        guard case .string(let text)? = value else { return nil }
        return DateTime.parse(text)
    }

    /// A number argument as an integer (LiteCore's `sqlite3_value_int64`).
    private static func milliseconds(_ value: JSONValue?) -> Int64? {
        switch value {
        case .int(let number)?: return number
        case .double(let number)?:
            guard number.isFinite, abs(number) < 9e18 else { return nil }
            return Int64(number.rounded(.towardZero))
        default: return nil
        }
    }

    /// LiteCore's doDateDiff: the difference between the written components (offsets
    /// ignored), counted in `component`; negative when `left` is earlier.
    private static func difference(_ first: DateTime, _ second: DateTime, _ component: Component) -> Int64 {
        var left = first
        var right = second
        var sign: Int64 = 1
        if left.wallMilliseconds < right.wallMilliseconds {
            swap(&left, &right)
            sign = -1
        }
        let years = left.year - right.year
        let dayOfYear = dayOfYear(left) - dayOfYear(right)
        func count(_ component: Component) -> Int64 {
            switch component {
            case .millisecond: return count(.second) * 1000 + (left.millisecond - right.millisecond)
            case .second: return count(.minute) * 60 + (left.second - right.second)
            case .minute: return count(.hour) * 60 + (left.minute - right.minute)
            case .hour: return count(.day) * 24 + (left.hour - right.hour)
            case .day:
                var days = years * 365 + dayOfYear
                if years != 0 { days += leapYears(before: left.year) - leapYears(before: right.year) }
                return days
            case .week: return count(.day) / 7
            case .month: return abs((left.year * 12 + left.month) - (right.year * 12 + right.month))
            case .quarter:
                return abs(left.year * 4 + (left.month + 2) / 3) - (right.year * 4 + (right.month + 2) / 3)
            case .year: return years
            case .decade: return years / 10
            case .century: return years / 100
            case .millennium: return years / 1000
            }
        }
        return count(component) * sign
    }

    /// LiteCore's doDateAdd: months and longer move the calendar date (a day past the end of
    /// the month runs into the next), shorter parts the time.
    private static func add(_ start: DateTime, _ amount: Int64, _ component: Component) -> Int64 {
        var year = start.year
        var month = start.month
        var time =
            ((start.hour * 60 + start.minute - (start.offset ?? 0)) * 60 + start.second) * 1000 + start.millisecond
        let months: Int64
        switch component {
        case .millisecond:
            time &+= amount
            months = 0
        case .second:
            time &+= amount &* 1000
            months = 0
        case .minute:
            time &+= amount &* 60_000
            months = 0
        case .hour:
            time &+= amount &* 3_600_000
            months = 0
        case .day:
            time &+= amount &* 86_400_000
            months = 0
        case .week:
            time &+= amount &* 604_800_000
            months = 0
        case .month: months = amount
        case .quarter: months = amount &* 3
        case .year: months = amount &* 12
        case .decade: months = amount &* 120
        case .century: months = amount &* 1200
        case .millennium: months = amount &* 12_000
        }
        let total = year &* 12 &+ (month - 1) &+ months
        year = total.floorDivided(by: 12)
        month = total - year * 12 + 1
        return days(year: year, month: month, day: start.day) &* 86_400_000 &+ time
    }

    private static func dayOfYear(_ date: DateTime) -> Int64 {
        days(year: date.year, month: date.month, day: date.day) - days(year: date.year, month: 1, day: 1)
    }

    /// LiteCore's leapYearsWithin.
    private static func leapYears(before year: Int64) -> Int64 {
        let y = year > 0 ? year - 1 : year + 1
        return y / 4 - y / 100 + y / 400
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (a day past the month's end runs on).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        // Wrapping arithmetic: an absurd DATE_ADD amount gives a wrong date, never a trap.
        let y = month <= 2 ? year &- 1 : year
        let era = y.floorDivided(by: 400)
        let yearOfEra = y &- era &* 400
        let m = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * m + 2) / 5 &+ day &- 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 &+ dayOfYear
        return era &* 146_097 &+ dayOfEra &- 719_468
    }

    static func civil(days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
