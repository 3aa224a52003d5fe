import Foundation

/// A clock that moves only when told to: ``advance(by:)`` runs, synchronously and in time
/// order, every scheduled action that became due.
package final class ManualClock: QuireClock, Sendable {
    private struct Entry {
        let id: Int
        let date: Date
        let action: @Sendable () -> Void
    }

    private struct State {
        var current: Date
        var entries: [Entry] = []
        var nextID = 0
    }

    private let state: Locked<State>

    /// Makes a clock showing `start` (by default 2026-01-01T00:00:00Z, a fixed instant so
    /// runs are repeatable).
    package init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        state = Locked(State(current: start))
    }

    /// The clock's current time.
    package var now: Date { state.withLock { $0.current } }

    /// Schedules `action`; it runs during the ``advance(by:)`` that reaches `date`, or at the
    /// next advance if `date` has already passed.
    package func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> any ClockTimer {
        let id = state.withLock { state in
            state.nextID += 1
            state.entries.append(Entry(id: state.nextID, date: date, action: action))
            return state.nextID
        }
        return ManualTimer(clock: self, id: id)
    }

    /// The number of actions waiting to run.
    package var pendingCount: Int { state.withLock { $0.entries.count } }

    /// Moves time forward and runs what became due, earliest first, on the calling thread.
    package func advance(by interval: TimeInterval) {
        advance(to: state.withLock { $0.current.addingTimeInterval(max(0, interval)) })
    }

    /// Moves time forward to `date` (never backwards) and runs what became due.
    package func advance(to date: Date) {
        while true {
            // Each action runs outside the lock: it may schedule or cancel actions.
            let next = state.withLock { state -> Entry? in
                let due = state.entries.enumerated()
                    .filter { $0.element.date <= date }
                    .min { ($0.element.date, $0.element.id) < ($1.element.date, $1.element.id) }
                guard let (index, entry) = due else {
                    if date > state.current { state.current = date }
                    return nil
                }
                state.entries.remove(at: index)
                if entry.date > state.current { state.current = entry.date }
                return entry
            }
            guard let next else { return }
            next.action()
        }
    }

    fileprivate func cancel(id: Int) {
        state.withLock { $0.entries.removeAll { $0.id == id } }
    }
}

private struct ManualTimer: ClockTimer {
    let clock: ManualClock
    let id: Int

    func cancel() { clock.cancel(id: id) }
}
