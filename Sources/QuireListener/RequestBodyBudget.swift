import Foundation
import Quire
import QuireSync

/// Bounds the bytes of request bodies being read at once, so many concurrent large uploads
/// cannot take the process's memory: each request reserves its body's size before reading
/// it and waits, first come first served, until the reservation fits.
///
/// Every reservation is at most the total, so each one eventually fits; waiting requests
/// are served in order, so a large body is not starved by small ones.
final class RequestBodyBudget: Sendable {
    private struct Waiter {
        let id: Int
        let bytes: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// The most bytes reserved at once.
    let total: Int
    private struct State {
        var reserved = 0
        var peak = 0
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = Locked(State())

    init(total: Int) {
        self.total = max(1, total)
    }

    /// The bytes reserved now.
    var inUse: Int { state.withLock { state in state.reserved } }

    /// The most bytes reserved at once so far.
    var peak: Int { state.withLock { state in state.peak } }

    /// The number of requests waiting for room.
    var waiting: Int { state.withLock { state in state.waiters.count } }

    /// Reserves `bytes` (at most ``total``), waiting until they fit. Task cancellation
    /// ends the wait with `CancellationError`.
    func reserve(_ bytes: Int) async throws -> Int {
        let amount = min(max(0, bytes), total)
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let granted = state.withLock { state -> Bool? in
                    if state.waiters.isEmpty, state.reserved + amount <= total {
                        state.reserved += amount
                        state.peak = max(state.peak, state.reserved)
                        return true
                    }
                    // Cancelled before it could wait: the cancellation handler found no waiter.
                    if Task.isCancelled { return nil }
                    state.waiters.append(Waiter(id: id, bytes: amount, continuation: continuation))
                    return false
                }
                switch granted {
                case true?: continuation.resume()
                case nil: continuation.resume(throwing: CancellationError())
                case false?: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
            release(0)
        }
        return amount
    }

    /// Adds `bytes` to the bytes reserved without waiting, even beyond ``total``: for bytes
    /// that exist already and are to be accounted (given back with ``release(_:)``).
    func charge(_ bytes: Int) {
        state.withLock { state in
            state.reserved += max(0, bytes)
            state.peak = max(state.peak, state.reserved)
        }
    }

    /// Gives back `bytes` reserved by ``reserve(_:)`` and lets the waiters that now fit in.
    func release(_ bytes: Int) {
        let ready = state.withLock { state -> [Waiter] in
            state.reserved -= bytes
            var ready: [Waiter] = []
            while let first = state.waiters.first, state.reserved + first.bytes <= total {
                state.reserved += first.bytes
                state.peak = max(state.peak, state.reserved)
                ready.append(state.waiters.removeFirst())
            }
            return ready
        }
        ready.forEach { $0.continuation.resume() }
    }
}
