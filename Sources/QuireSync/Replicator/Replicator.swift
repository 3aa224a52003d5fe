import Dispatch
import Foundation
import Quire

/// Replicates a database's collections with a remote database over the CouchDB replication
/// protocol: push, pull or both, once or continuously.
///
/// ```swift
/// var config = ReplicatorConfiguration(target: URLEndpoint(url: serverURL))  // http://host:4984/db
/// config.addCollection(try database.defaultCollection())
/// config.continuous = true
/// let replicator = Replicator(config: config)
/// replicator.addChangeListener { change in print(change.status.activity) }
/// replicator.start()
/// ```
///
/// A replicator runs in the background; its ``status`` and the listeners tell how it is
/// doing. Network failures put it offline and it retries with growing waits (see
/// ``ReplicatorConfiguration/maxAttempts``); a malformed or hostile response from the peer
/// stops it with an error naming what was wrong, and never leaves a partial document. Where
/// each collection started is in ``checkpointReport(for:)``.
///
/// Listeners are called on the queue given, or on a private serial queue, in order.
public final class Replicator: Sendable {
    private struct Listener<Value>: Sendable {
        let queue: DispatchQueue
        let deliver: @Sendable (Value) -> Void
    }

    private struct State {
        var current = Status(activity: .stopped, progress: Progress(completed: 0, total: 0), error: nil)
        var runTask: Task<Void, Never>?
        var generation = 0
        var statusListeners: [UUID: Listener<ReplicatorChange>] = [:]
        var documentListeners: [UUID: Listener<DocumentReplication>] = [:]
        var reports: [String: CheckpointReport] = [:]
        var correlationID: String?
    }

    /// The configuration, as given.
    public let config: ReplicatorConfiguration
    private let state = Locked(State())
    private let transferred = Locked<Int64>(0)
    private let listenerQueue = DispatchQueue(label: "Quire.Replicator.listeners")
    /// The leaf certificate an HTTPS peer last presented (DER); see `serverCertificate`.
    let presentedCertificate = Locked(Data?.none)

    /// A replicator for `config`; it does nothing until ``start()``.
    public init(config: ReplicatorConfiguration) {
        self.config = config
    }

    /// The current activity, progress and error.
    public var status: Status { state.withLock { $0.current } }

    /// The ID of the current (or last) run: nil before the first ``start()``, then a new one
    /// at each start. It is the session ID the run writes into its checkpoints, so a run can
    /// be found in the remote's checkpoint documents and in its logs.
    public var correlationID: String? { state.withLock { $0.correlationID } }

    /// The bytes of HTTP bodies sent and received since the replicator was made (request
    /// bodies as sent, response bodies as received, compressed or not): what `quire db push`
    /// and `pull` show as they go.
    package var bytesTransferred: Int64 { transferred.withLock { $0 } }

    /// Adds `count` to ``bytesTransferred``.
    func countTransferred(_ count: Int64) { transferred.withLock { $0 += count } }

    /// Starts replicating from the checkpoints; does nothing when already running.
    public func start() {
        start(reset: false)
    }

    /// Starts replicating; with `reset`, from the beginning, as if no checkpoint existed
    /// (documents already present are not transferred again).
    public func start(reset: Bool) {
        let run: ReplicationRun
        do {
            let (url, entries) = try config.validated()
            let sessionID = UUID().uuidString.lowercased()
            let (begun, generation) = state.withLock { state -> (Bool, Int) in
                if state.current.activity != .stopped { return (false, state.generation) }
                state.generation += 1
                state.reports = [:]
                state.correlationID = sessionID
                return (true, state.generation)
            }
            guard begun else { return }
            run = ReplicationRun(
                monitor: ReplicationMonitor(replicator: self, generation: generation), config: config, url: url,
                entries: entries, reset: reset, sessionID: sessionID)
        } catch {
            update(generation: nil) {
                $0 = Status(activity: .stopped, progress: $0.progress, error: ReplicationRun.quireError(error))
            }
            return
        }
        update(generation: run.monitor.generation) {
            $0 = Status(activity: .connecting, progress: Progress(completed: 0, total: 0), error: nil)
        }
        let task = Task { await run.execute() }
        state.withLock { state in
            if state.generation == run.monitor.generation { state.runTask = task }
        }
    }

    /// Stops replicating. The status turns ``ActivityLevel/stopped`` once in-flight work has
    /// been abandoned (each document is stored whole or not at all).
    public func stop() {
        let task = state.withLock { $0.runTask }
        task?.cancel()
    }

    /// Calls `listener` with every status change.
    @discardableResult
    public func addChangeListener(
        withQueue queue: DispatchQueue? = nil, _ listener: @escaping @Sendable (ReplicatorChange) -> Void
    ) -> ReplicatorListenerToken {
        let id = UUID()
        let entry = Listener(queue: queue ?? listenerQueue, deliver: listener)
        state.withLock { $0.statusListeners[id] = entry }
        return ReplicatorListenerToken(id: id) { [weak self] id in
            self?.state.withLock { _ = $0.statusListeners.removeValue(forKey: id) }
        }
    }

    /// Calls `listener` with the documents of each pushed or pulled batch.
    @discardableResult
    public func addDocumentReplicationListener(
        withQueue queue: DispatchQueue? = nil, _ listener: @escaping @Sendable (DocumentReplication) -> Void
    ) -> ReplicatorListenerToken {
        let id = UUID()
        let entry = Listener(queue: queue ?? listenerQueue, deliver: listener)
        state.withLock { $0.documentListeners[id] = entry }
        return ReplicatorListenerToken(id: id) { [weak self] id in
            self?.state.withLock { _ = $0.documentListeners.removeValue(forKey: id) }
        }
    }

    /// Where the current (or last) run started replicating `collection`, and why; nil before
    /// its checkpoints were read.
    public func checkpointReport(for collection: Collection) -> CheckpointReport? {
        state.withLock { $0.reports[collection.fullName] }
    }

    // MARK: Run callbacks

    /// Applies `change` to the status of run `generation` (nil: whatever run), and tells the
    /// listeners when it changed. Updates from a run that was replaced are dropped.
    func update(generation: Int?, _ change: (inout Status) -> Void) {
        let changed = state.withLock { state -> (from: Status, to: Status)? in
            if let generation, generation != state.generation { return nil }
            var status = state.current
            change(&status)
            guard status != state.current else { return nil }
            let from = state.current
            state.current = status
            if status.activity == .stopped, generation != nil { state.runTask = nil }
            let notice = ReplicatorChange(replicator: self, status: status)
            for listener in state.statusListeners.values {
                listener.queue.async { listener.deliver(notice) }
            }
            return (from, status)
        }
        // Logged outside the lock: a custom log sink may read this replicator.
        guard let changed, changed.from.activity != changed.to.activity || changed.from.error != changed.to.error
        else { return }
        let target = (config.target as? URLEndpoint).map { HTTPTransport.loggable($0.url) } ?? "\(config.target)"
        if let error = changed.to.error, changed.from.error != error {
            // Offline is a failure the replicator retries; stopped with an error is final.
            let level: LogLevel = changed.to.activity == .stopped ? .error : .warning
            Log.write(.replicator, level, "Replicator to \(target) is \(changed.to.activity): \(error)")
        } else {
            Log.write(.replicator, .info, "Replicator to \(target) is \(changed.to.activity)")
        }
    }

    func deliver(generation: Int, documents: [ReplicatedDocument], isPush: Bool) {
        guard !documents.isEmpty else { return }
        state.withLock { state in
            guard generation == state.generation else { return }
            let notice = DocumentReplication(replicator: self, isPush: isPush, documents: documents)
            for listener in state.documentListeners.values {
                listener.queue.async { listener.deliver(notice) }
            }
        }
    }

    func record(generation: Int, report: CheckpointReport, for collection: Collection) {
        state.withLock { state in
            guard generation == state.generation else { return }
            state.reports[collection.fullName] = report
        }
    }
}
