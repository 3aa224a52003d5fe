import Foundation

/// When to try again after a network failure: waits double from one second (1, 2, 4, 8 …)
/// up to a cap, and the attempts are counted against a limit.
struct RetrySchedule: Sendable, Equatable {
    /// Attempts in all, the first included.
    let maxAttempts: UInt
    /// The longest wait, in seconds.
    let maxWait: TimeInterval

    /// The wait before attempt `attempt + 1`, after `attempt` failures (1-based); nil when
    /// no attempt is left.
    func delay(afterFailures failures: UInt) -> TimeInterval? {
        guard failures >= 1, failures < maxAttempts else { return nil }
        let exponent = Double(min(failures - 1, 62))
        return min(maxWait, pow(2, exponent))
    }
}
