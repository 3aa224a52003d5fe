import Foundation

/// Bounds the bytes of request bodies being read at once, so many concurrent large uploads
/// cannot take the process's memory: each request reserves its body's size before reading
/// it and waits, first come first served, until the reservation fits.
///
/// Every reservation is at most the total, so each one eventually fits; waiting requests
/// are served in order, so a large body is not starved by small ones.
final class RequestBodyBudget: @unchecked Sendable {
    private struct Waiter {
        let id: Int
        let bytes: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// The most bytes reserved at once.
    let total: Int
    private let lock = NSLock()
    private var reserved = 0
    private var waiters: [Waiter] = []
    private var nextID = 0

    init(total: Int) {
        self.total = max(1, total)
    }

    /// The bytes reserved now.
    var inUse: Int { lock.withLock { reserved } }

    /// The number of requests waiting for room.
    var waiting: Int { lock.withLock { waiters.count } }

    /// Reserves `bytes` (at most ``total``), waiting until they fit. Task cancellation
    /// ends the wait with `CancellationError`.
    func reserve(_ bytes: Int) async throws -> Int {
        let amount = min(max(0, bytes), total)
        let id = lock.withLock { () -> Int in
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let granted = lock.withLock { () -> Bool in
                    if waiters.isEmpty, reserved + amount <= total {
                        reserved += amount
                        return true
                    }
                    waiters.append(Waiter(id: id, bytes: amount, continuation: continuation))
                    return false
                }
                if granted { continuation.resume() }
            }
        } onCancel: {
            let waiter = lock.withLock { () -> Waiter? in
                guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
            release(0)
        }
        return amount
    }

    /// Gives back `bytes` reserved by ``reserve(_:)`` and lets the waiters that now fit in.
    func release(_ bytes: Int) {
        let ready = lock.withLock { () -> [Waiter] in
            reserved -= bytes
            var ready: [Waiter] = []
            while let first = waiters.first, reserved + first.bytes <= total {
                reserved += first.bytes
                ready.append(waiters.removeFirst())
            }
            return ready
        }
        ready.forEach { $0.continuation.resume() }
    }
}
