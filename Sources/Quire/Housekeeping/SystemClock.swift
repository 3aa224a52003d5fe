import Dispatch
import Foundation

/// The wall clock, with timers on a background dispatch queue.
public struct SystemClock: QuireClock {
    private static let queue = DispatchQueue(label: "quire.clock", qos: .utility)

    /// Makes the system clock.
    public init() {}

    /// The system's current time, `Date()`.
    public var now: Date { Date() }

    /// Schedules `action` on a background queue at `date` (at once if it has passed).
    public func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> any ClockTimer {
        let timer = DispatchSource.makeTimerSource(queue: SystemClock.queue)
        let delay = max(0, date.timeIntervalSinceNow)
        timer.schedule(wallDeadline: .now() + delay, leeway: .milliseconds(10))
        timer.setEventHandler(handler: action)
        timer.resume()
        return DispatchClockTimer(timer: timer)
    }
}

private struct DispatchClockTimer: ClockTimer, @unchecked Sendable {
    // Safe because its one field is a DispatchSourceTimer, which libdispatch lets any thread
    // cancel, though it is not marked Sendable.
    let timer: any DispatchSourceTimer

    func cancel() { timer.cancel() }
}
