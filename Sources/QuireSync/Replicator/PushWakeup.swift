import Foundation
import Quire

/// Wakes a pusher that has caught up: on every change of its collection, and when the pull
/// of the same collection ends. A one-shot push-and-pull run keeps its pusher until the
/// puller is done, so the revisions conflict resolution writes during the pull are pushed in
/// the same run, as Couchbase Lite does.
final class PushWakeup: @unchecked Sendable {
    private let lock = NSLock()
    private var pullFinished: Bool
    private let continuation: AsyncStream<Void>.Continuation
    private var token: ListenerToken?
    /// Yields after each wake-up (at most one pending).
    let signals: AsyncStream<Void>

    /// `pullRunning`: whether a puller of the same collection runs alongside.
    init(collection: Collection, pullRunning: Bool) {
        pullFinished = !pullRunning
        (signals, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let continuation = self.continuation
        token = collection.addChangeListener { _ in continuation.yield() }
    }

    /// Whether the puller has ended (or there is none).
    var isPullFinished: Bool { lock.withLock { pullFinished } }

    /// Called by the puller when it ends, however it ends.
    func pullDidFinish() {
        lock.withLock { pullFinished = true }
        continuation.yield()
    }

    /// Stops listening to the collection.
    func close() {
        let token = lock.withLock {
            defer { self.token = nil }
            return self.token
        }
        token?.remove()
        continuation.finish()
    }
}
