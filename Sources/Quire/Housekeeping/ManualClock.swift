import Foundation

/// A clock that moves only when told to: ``advance(by:)`` runs, synchronously and in time
/// order, every scheduled action that became due.
public final class ManualClock: QuireClock, @unchecked Sendable {
    private struct Entry {
        let id: Int
        let date: Date
        let action: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var current: Date
    private var entries: [Entry] = []
    private var nextID = 0

    /// Makes a clock showing `start` (by default 2026-01-01T00:00:00Z, a fixed instant so
    /// runs are repeatable).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = start
    }

    /// The clock's current time.
    public var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Schedules `action`; it runs during the ``advance(by:)`` that reaches `date`, or at the
    /// next advance if `date` has already passed.
    public func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> any ClockTimer {
        lock.lock()
        defer { lock.unlock() }
        nextID += 1
        entries.append(Entry(id: nextID, date: date, action: action))
        return ManualTimer(clock: self, id: nextID)
    }

    /// The number of actions waiting to run.
    public var pendingCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    /// Moves time forward and runs what became due, earliest first, on the calling thread.
    public func advance(by interval: TimeInterval) {
        lock.lock()
        let target = current.addingTimeInterval(max(0, interval))
        lock.unlock()
        advance(to: target)
    }

    /// Moves time forward to `date` (never backwards) and runs what became due.
    public func advance(to date: Date) {
        while true {
            lock.lock()
            let due = entries.enumerated()
                .filter { $0.element.date <= date }
                .min { ($0.element.date, $0.element.id) < ($1.element.date, $1.element.id) }
            guard let (index, entry) = due else {
                if date > current { current = date }
                lock.unlock()
                return
            }
            entries.remove(at: index)
            if entry.date > current { current = entry.date }
            lock.unlock()
            entry.action()
        }
    }

    fileprivate func cancel(id: Int) {
        lock.lock()
        entries.removeAll { $0.id == id }
        lock.unlock()
    }
}

private struct ManualTimer: ClockTimer {
    let clock: ManualClock
    let id: Int

    func cancel() { clock.cancel(id: id) }
}
