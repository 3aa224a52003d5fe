import QuireFixtures

/// A zip "last modified" field: MS-DOS date and time packed into 32 bits.
///
/// The format has no time zone, 2-second steps and a 1980...2107 range. Quire always fills it
/// with the UTC wall clock of the fixture timestamp, computed here without `localtime`, because
/// libarchive's own conversion uses the process's time zone.
struct DOSDateTime: Equatable {
    /// Date in the high 16 bits, time in the low 16 bits (the order of a little-endian read of
    /// the time-then-date fields in zip headers).
    let packed: UInt32

    static let earliest = UTCWallClock(year: 1980, month: 1, day: 1, hour: 0, minute: 0, second: 0)
    static let latest = UTCWallClock(year: 2107, month: 12, day: 31, hour: 23, minute: 59, second: 58)

    init(packed: UInt32) {
        self.packed = packed
    }

    /// The field for a moment, clamped to the representable range and rounded down to even seconds.
    init(secondsSinceEpoch: Int64) {
        let clamped = min(max(secondsSinceEpoch, Self.earliest.secondsSinceEpoch), Self.latest.secondsSinceEpoch)
        let wall = UTCWallClock(secondsSinceEpoch: clamped)
        let date = UInt32(wall.year - 1980) << 9 | UInt32(wall.month) << 5 | UInt32(wall.day)
        let time = UInt32(wall.hour) << 11 | UInt32(wall.minute) << 5 | UInt32(wall.second / 2)
        packed = date << 16 | time
    }

    /// The wall clock this field holds, read as UTC.
    var wallClock: UTCWallClock {
        let date = packed >> 16
        let time = packed & 0xffff
        return UTCWallClock(
            year: Int(date >> 9) + 1980, month: Int(date >> 5 & 0x0f), day: Int(date & 0x1f),
            hour: Int(time >> 11), minute: Int(time >> 5 & 0x3f), second: Int(time & 0x1f) * 2)
    }
}
