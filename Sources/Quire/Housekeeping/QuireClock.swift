import Foundation

/// Where a database takes the current time from, and how it waits for a moment to come.
///
/// Expiration uses it, so tests and specs can use a clock they advance (Quire's own tests and
/// specs use a manual clock) instead of sleeping.
public protocol QuireClock: Sendable {
    /// The current time.
    var now: Date { get }
    /// Runs `action` once, at or soon after `date`. The returned timer cancels it.
    func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> any ClockTimer
}

/// A scheduled action that can be cancelled.
public protocol ClockTimer: Sendable {
    /// Stops the action from running, if it has not run yet.
    func cancel()
}
