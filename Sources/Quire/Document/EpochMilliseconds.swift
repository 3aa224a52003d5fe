import Foundation

/// Whole milliseconds since 1970, the unit Quire stores dates and expirations in.
///
/// A `Date` holds seconds as a `Double`, so a whole number of milliseconds before 1970 is not
/// exact: `-0.001` seconds times 1000 is `-1.0000000000000002`, and rounding that down gives
/// `-2`, a millisecond early (`1969-12-31T23:59:59.999Z` read back as `.998Z`). The conversion
/// first rounds to whole microseconds, which absorbs that error, then takes the floor in
/// integers, so a date between two milliseconds still goes to the earlier one.
enum EpochMilliseconds {
    /// The whole milliseconds of `date` (the floor, up to a microsecond of rounding error).
    static func of(_ date: Date) -> Int64 {
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard microseconds.isFinite, abs(microseconds) < 9.0e18 else {
            return microseconds < 0 ? Int64.min / 1000 : Int64.max / 1000
        }
        let whole = Int64(microseconds)
        let quotient = whole / 1000
        return whole % 1000 < 0 ? quotient - 1 : quotient
    }

    /// The date `milliseconds` after 1970.
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
