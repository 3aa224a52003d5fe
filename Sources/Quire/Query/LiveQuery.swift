import Dispatch
import Foundation

/// One listener of a query: it re-runs the query after commits that touch the query's
/// collections and reports results that differ from the last ones reported.
///
/// Runs happen on a private serial queue. A commit schedules a run a short moment later
/// unless one is already scheduled, so a burst of commits costs one run. Removal (by the
/// token or by closing the database) marks it stopped before anything else; a run already
/// under way then delivers nothing.
package final class LiveQuery: @unchecked Sendable {
    // Safe because the scheduling state is behind its lock and `lastResults` is touched
    // only on the serial `worker` queue; the rest are constants.
    /// How long a commit waits for the next ones before the query re-runs, in milliseconds.
    /// The live-query performance spec's hand-written baseline waits as long after each
    /// insert, so that its ratio measures the work around the wait rather than the wait.
    package static let coalescingMilliseconds = 20
    static let coalescingDelay: DispatchTimeInterval = .milliseconds(coalescingMilliseconds)

    private let query: Query
    private let queue: DispatchQueue
    private let listener: @Sendable (QueryChange) -> Void
    private let worker = DispatchQueue(label: "quire.livequery")
    private struct State {
        var scheduled = false
        var stopped = false
        var onStop: (@Sendable () -> Void)?
    }

    private let state = Locked(State())
    /// Touched only on `worker`.
    private var lastResults: ResultSet?

    init(query: Query, queue: DispatchQueue, listener: @escaping @Sendable (QueryChange) -> Void) {
        self.query = query
        self.queue = queue
        self.listener = listener
    }

    /// Subscribes to the query's collections and runs the query once at once.
    func start(onStop: @escaping @Sendable () -> Void) -> ListenerToken {
        state.withLock { $0.onStop = onStop }
        let database = query.plan.database
        let ids = Set(query.plan.sources.map(\.collection.id))
        let token = database.core.changes.add(
            collectionIDs: ids, documentID: nil, owner: ObjectIdentifier(database), queue: worker,
            deliver: { [weak self] _ in self?.scheduleRun() },
            onRemove: { [weak self] in self?.stop() })
        if database.isClosedObject { token.remove() }
        state.withLock { $0.scheduled = true }
        worker.async { [self] in run() }
        return token
    }

    /// Schedules a run unless one is already waiting.
    func scheduleRun() {
        let schedule = state.withLock { state in
            guard !state.scheduled, !state.stopped else { return false }
            state.scheduled = true
            return true
        }
        if schedule {
            worker.asyncAfter(deadline: .now() + LiveQuery.coalescingDelay) { [self] in run() }
        }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func stop() {
        let callback = state.withLock { state in
            state.stopped = true
            defer { state.onStop = nil }
            return state.onStop
        }
        callback?()
    }

    private func run() {
        let proceed = state.withLock { state in
            state.scheduled = false
            return !state.stopped
        }
        guard proceed else { return }
        let change: QueryChange
        do {
            let results = try query.execute()
            if let lastResults, lastResults.hasSameRows(as: results) { return }
            lastResults = results
            change = QueryChange(query: query, results: results.copy(), error: nil)
        } catch {
            if isStopped { return }
            lastResults = nil
            change = QueryChange(query: query, results: nil, error: error)
        }
        let listener = self.listener
        queue.async { [self] in
            if !isStopped { listener(change) }
        }
    }
}
