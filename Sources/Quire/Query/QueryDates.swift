import Foundation

/// The ISO-8601 text date functions produce.
enum QueryDates {
    /// `2026-01-02T03:04:05Z`, with `.SSS` when there are milliseconds and `±hh:mm` for a
    /// non-zero offset (seconds east of UTC).
    static func format(_ date: Date, offset: Int) -> String {
        var text = ISO8601.string(from: date.addingTimeInterval(TimeInterval(offset)))
        text.removeLast()  // "Z"
        if text.hasSuffix(".000") { text.removeLast(4) }
        guard offset != 0 else { return text + "Z" }
        let minutes = abs(offset) / 60
        let hours = String(minutes / 60)
        let rest = String(minutes % 60)
        return text + (offset < 0 ? "-" : "+") + (hours.count < 2 ? "0" + hours : hours) + ":"
            + (rest.count < 2 ? "0" + rest : rest)
    }
}
