import Foundation

/// The updates live query listeners delivered, by listener name: each update's row count
/// (-1 for a run that failed), and a condition that wakes whoever waits for the next one.
final class QueryUpdates: @unchecked Sendable {
    // Safe because every member is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var rows: [String: [Int]] = [:]

    /// Records an update of `name` (with `rows` nil, only makes `name` known).
    func record(_ name: String, rows count: Int?) {
        condition.lock()
        defer { condition.unlock() }
        if let count { rows[name, default: []].append(count) } else { rows[name] = rows[name] ?? [] }
        condition.broadcast()
    }

    /// The row count of `name`'s update after the first `seen`, waiting for it at most
    /// `timeout` seconds; nil when none came.
    func wait(_ name: String, beyond seen: Int, timeout: Double) -> Int? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while rows[name, default: []].count <= seen {
            guard condition.wait(until: deadline) else { break }
        }
        let delivered = rows[name, default: []]
        return delivered.count > seen ? delivered[seen] : nil
    }

    /// Every update of `name` so far.
    func rows(_ name: String) -> [Int] {
        condition.lock()
        defer { condition.unlock() }
        return rows[name] ?? []
    }
}
