import Foundation
import Quire

/// Wakes a pusher that has caught up: on every change of its collection, and when the pull
/// of the same collection ends. A one-shot push-and-pull run keeps its pusher until the
/// puller is done, so the revisions conflict resolution writes during the pull are pushed in
/// the same run, as Couchbase Lite does.
final class PushWakeup: Sendable {
    private struct State {
        var pullFinished: Bool
        var token: ListenerToken?
    }

    private let state: Locked<State>
    private let continuation: AsyncStream<Void>.Continuation
    /// Yields after each wake-up (at most one pending).
    let signals: AsyncStream<Void>

    /// `pullRunning`: whether a puller of the same collection runs alongside.
    init(collection: Collection, pullRunning: Bool) {
        (signals, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let continuation = self.continuation
        let token = collection.addChangeListener { _ in continuation.yield() }
        state = Locked(State(pullFinished: !pullRunning, token: token))
    }

    /// Whether the puller has ended (or there is none).
    var isPullFinished: Bool { state.withLock { $0.pullFinished } }

    /// Called by the puller when it ends, however it ends.
    func pullDidFinish() {
        state.withLock { $0.pullFinished = true }
        continuation.yield()
    }

    /// Stops listening to the collection.
    func close() {
        let token = state.withLock { state in
            defer { state.token = nil }
            return state.token
        }
        token?.remove()
        continuation.finish()
    }
}
