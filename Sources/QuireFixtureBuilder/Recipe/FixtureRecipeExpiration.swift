import QuireFixtures

extension FixtureRecipe {
    /// When a collection's documents expire. Both forms are fixed by the inputs, never by
    /// the time the build runs, so builds stay reproducible.
    public enum Expiration: Sendable, Equatable {
        /// Every document expires this many seconds after the build timestamp
        /// (`SOURCE_DATE_EPOCH`). Written `after: 30d` (units `s`, `m`, `h`, `d`, `w`).
        case after(seconds: Int64)
        /// Each document expires when its top-level field says: milliseconds since the epoch
        /// as an integer, or ISO 8601 text; documents without the field do not expire.
        case field(String)

        /// Parses `90`, `90s`, `15m`, `12h`, `30d`, `2w` into seconds; nil when malformed,
        /// zero or too large.
        static func seconds(fromDuration text: String) -> Int64? {
            let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
            var digits = Substring(text)
            var multiplier: Int64 = 1
            if let last = digits.last, let unit = units[last] {
                multiplier = unit
                digits = digits.dropLast()
            }
            guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let count = Int64(digits), count > 0
            else { return nil }
            let (seconds, overflow) = count.multipliedReportingOverflow(by: multiplier)
            // A century is more than any fixture needs and keeps milliseconds far from overflow.
            guard !overflow, seconds <= 100 * 366 * 86_400 else { return nil }
            return seconds
        }
    }
}
