import Foundation
import Quire

/// The one timestamp a fixture build stamps on everything it writes.
///
/// Reproducible builds take it from `SOURCE_DATE_EPOCH` (seconds since the Unix epoch, as the
/// reproducible-builds.org convention defines); without it a constant is used, so that two
/// builds of the same inputs never differ by the time they ran.
public struct FixtureTimestamp: Sendable, Equatable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let secondsSinceEpoch: Int64

    /// The constant used when `SOURCE_DATE_EPOCH` is not set: 2000-01-01T00:00:00Z.
    public static let fallback = FixtureTimestamp(secondsSinceEpoch: 946_684_800)

    /// The name of the environment variable read by ``fromEnvironment(_:)``.
    public static let environmentVariable = "SOURCE_DATE_EPOCH"

    /// Makes a timestamp from seconds since the Unix epoch.
    public init(secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    /// The timestamp from `SOURCE_DATE_EPOCH` in `environment`, or ``fallback`` when unset or empty.
    ///
    /// - Throws: `QuireError.invalidParameter` when the variable is set but is not a whole,
    ///   non-negative number of seconds (the convention says to fail rather than guess).
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> FixtureTimestamp {
        guard let text = environment[environmentVariable], !text.isEmpty else { return fallback }
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let seconds = Int64(text)
        else {
            throw QuireError(
                .invalidParameter,
                "\(environmentVariable) '\(text)' is not a whole, non-negative number of seconds")
        }
        return FixtureTimestamp(secondsSinceEpoch: seconds)
    }

    /// The UTC wall-clock time, `YYYY-MM-DDThh:mm:ssZ`.
    public var iso8601: String {
        let wall = UTCWallClock(secondsSinceEpoch: secondsSinceEpoch)
        return "\(pad(wall.year, 4))-\(pad(wall.month, 2))-\(pad(wall.day, 2))T"
            + "\(pad(wall.hour, 2)):\(pad(wall.minute, 2)):\(pad(wall.second, 2))Z"
    }

    /// Parses `YYYY-MM-DDThh:mm:ssZ` (the form ``iso8601`` writes), or returns nil.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...UTCWallClock.daysInMonth(year: year, month: month)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let wall = UTCWallClock(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        self.init(secondsSinceEpoch: wall.secondsSinceEpoch)
    }

    /// The timestamp as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSinceEpoch)) }

    /// The ISO 8601 form.
    public var description: String { iso8601 }

    /// Orders by time.
    public static func < (lhs: FixtureTimestamp, rhs: FixtureTimestamp) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
