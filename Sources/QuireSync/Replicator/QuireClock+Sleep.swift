import Foundation
import Quire

extension QuireClock {
    /// Waits `seconds` by this clock: a `ManualClock` ends the wait when advanced past it,
    /// the system clock after that much real time. Throws `CancellationError` when the task
    /// is cancelled first.
    func sleep(seconds: TimeInterval) async throws {
        let waiter = ClockWaiter()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                waiter.begin(continuation)
                let timer = schedule(at: now.addingTimeInterval(max(0, seconds))) { waiter.finish(nil) }
                waiter.attach(timer)
            }
        } onCancel: {
            waiter.finish(CancellationError())
        }
    }
}

/// One clock wait: resumed exactly once, by the timer or by cancellation.
private final class ClockWaiter: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var timer: (any ClockTimer)?
        var outcome: (any Error)??
    }

    private let state = Locked(State())

    func begin(_ continuation: CheckedContinuation<Void, any Error>) {
        let early = state.withLock { state -> (any Error)?? in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        if let early { resume(continuation, early) }
    }

    func attach(_ timer: any ClockTimer) {
        let done = state.withLock { state -> Bool in
            if state.outcome != nil { return true }
            state.timer = timer
            return false
        }
        if done { timer.cancel() }
    }

    func finish(_ error: (any Error)?) {
        let (continuation, timer) = state.withLock {
            state -> (CheckedContinuation<Void, any Error>?, (any ClockTimer)?) in
            guard state.outcome == nil else { return (nil, nil) }
            state.outcome = .some(error)
            defer {
                state.continuation = nil
                state.timer = nil
            }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        if let continuation { resume(continuation, error) }
    }

    private func resume(_ continuation: CheckedContinuation<Void, any Error>, _ error: (any Error)?) {
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
}
