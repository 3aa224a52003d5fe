import Foundation
import Quire

@testable import QuireSync

/// Runs one replicator to its end, again and again, as Couchbase Lite's tests'
/// `run(replicator:)` does: a continuous replicator is stopped once it is idle with all it
/// found processed. Also records the replicated documents.
final class ReplicatorRunner: @unchecked Sendable {
    let replicator: Replicator
    private let lock = NSLock()
    private var statuses: [Replicator.Status] = []
    private var documents: [(isPush: Bool, document: ReplicatedDocument)] = []
    private var tokens: [ReplicatorListenerToken] = []

    init(_ replicator: Replicator) {
        self.replicator = replicator
        tokens.append(
            replicator.addChangeListener { [self] change in
                let status = change.status
                if change.replicator.config.continuous, status.activity == .idle,
                    status.progress.completed == status.progress.total
                {
                    change.replicator.stop()
                }
                lock.withLock { statuses.append(status) }
            })
        tokens.append(
            replicator.addDocumentReplicationListener { [self] replication in
                lock.withLock { documents += replication.documents.map { (replication.isPush, $0) } }
            })
    }

    convenience init(_ config: ReplicatorConfiguration) {
        self.init(Replicator(config: config))
    }

    /// Every status seen so far.
    var activities: [Replicator.ActivityLevel] { lock.withLock { statuses.map(\.activity) } }
    /// Documents pushed so far.
    var pushed: [ReplicatedDocument] { lock.withLock { documents.filter(\.isPush).map(\.document) } }
    /// Documents pulled so far.
    var pulled: [ReplicatedDocument] { lock.withLock { documents.filter { !$0.isPush }.map(\.document) } }
    /// Forgets the documents recorded so far.
    func clearDocuments() { lock.withLock { documents = [] } }

    /// Starts the replicator and waits for it to stop; returns the status it stopped with.
    @discardableResult
    func run(reset: Bool = false, timeout: TimeInterval = 120) async throws -> Replicator.Status {
        let start = lock.withLock { statuses.count }
        replicator.start(reset: reset)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let stopped = lock.withLock({ statuses.dropFirst(start).first { $0.activity == .stopped } }) {
                return stopped
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        replicator.stop()
        throw TestTimeout(message: "the replicator did not stop within \(timeout) s; seen: \(activities)")
    }
}

/// A configuration replicating `collections` with `url`, retrying quickly.
func replicatorConfig(
    _ collections: [Collection], _ url: URL, type: ReplicatorType = .pushAndPull, continuous: Bool = false,
    config: CollectionConfiguration? = nil
) -> ReplicatorConfiguration {
    var replication = ReplicatorConfiguration(target: URLEndpoint(url: url))
    replication.replicatorType = type
    replication.continuous = continuous
    replication.maxAttemptWaitTime = 0.05
    replication.addCollections(collections, config: config)
    return replication
}

/// A set of strings several threads add to.
final class SeenIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [String] = []
    func add(_ id: String) { lock.withLock { ids.append(id) } }
    /// Adds `id` and returns how many there are now.
    func adding(_ id: String) -> Int {
        lock.withLock {
            ids.append(id)
            return ids.count
        }
    }
    var all: [String] { lock.withLock { ids } }
    var set: Set<String> { Set(all) }
    func clear() { lock.withLock { ids = [] } }
}
