import Foundation
import Quire
@testable import QuireSync

/// A database in its own temporary folder, removed on release.
final class SyncTestDatabase: @unchecked Sendable {
    let directory: URL
    let database: Database
    let collection: Collection

    init(name: String = "local") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-sync-\(UUID().uuidString)")
        database = try Database(name: name, config: DatabaseConfiguration(directory: directory.path))
        collection = try database.defaultCollection()
    }

    /// Opens another database in the same folder.
    func sibling(_ name: String) throws -> Database {
        try Database(name: name, config: DatabaseConfiguration(directory: directory.path))
    }

    @discardableResult
    func save(_ id: String, _ json: String, in collection: Collection? = nil) throws -> MutableDocument {
        let document = try MutableDocument(id: id, json: json)
        try (collection ?? self.collection).save(document: document)
        return document
    }

    deinit {
        try? database.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A database served by a ``URLEndpointListener`` on 127.0.0.1.
final class ListeningPeer: @unchecked Sendable {
    let store: SyncTestDatabase
    private(set) var listener: URLEndpointListener
    private(set) var port: UInt16 = 0
    var database: Database { store.database }
    var collection: Collection { store.collection }

    init(name: String = "remote", extraCollections: [(scope: String, name: String)] = []) async throws {
        store = try SyncTestDatabase(name: name)
        var collections = [store.collection]
        for extra in extraCollections {
            collections.append(try store.database.createCollection(name: extra.name, scope: extra.scope))
        }
        listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(collections: collections, networkInterface: "127.0.0.1"))
        try await listener.start()
        port = listener.port ?? 0
    }

    /// `http://127.0.0.1:<port>/<database name>`.
    var url: URL {
        URL(string: "http://127.0.0.1:\(port)/\(database.name)") ?? URL(fileURLWithPath: "/")
    }

    func stop() async {
        await listener.stop()
    }

    /// Starts listening again on the same port.
    func restart() async throws {
        var config = listener.config
        config.port = port
        listener = URLEndpointListener(config: config)
        try await listener.start()
    }

    @discardableResult
    func save(_ id: String, _ json: String) throws -> MutableDocument {
        try store.save(id, json)
    }
}

/// What a finished replication did.
struct ReplicationOutcome: Sendable {
    let status: Replicator.Status
    let activities: [Replicator.ActivityLevel]
    let pushed: [ReplicatedDocument]
    let pulled: [ReplicatedDocument]
    let report: CheckpointReport?
}

/// Records a replicator's status changes and replicated documents.
final class ReplicationRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [Replicator.Status] = []
    private var pushedDocuments: [ReplicatedDocument] = []
    private var pulledDocuments: [ReplicatedDocument] = []
    private var tokens: [ReplicatorListenerToken] = []

    init(_ replicator: Replicator) {
        tokens.append(replicator.addChangeListener { [self] change in lock.withLock { statuses.append(change.status) } })
        tokens.append(
            replicator.addDocumentReplicationListener { [self] replication in
                lock.withLock {
                    if replication.isPush {
                        pushedDocuments += replication.documents
                    } else {
                        pulledDocuments += replication.documents
                    }
                }
            })
    }

    var activities: [Replicator.ActivityLevel] { lock.withLock { statuses.map(\.activity) } }
    var lastStatus: Replicator.Status? { lock.withLock { statuses.last } }
    var pushed: [ReplicatedDocument] { lock.withLock { pushedDocuments } }
    var pulled: [ReplicatedDocument] { lock.withLock { pulledDocuments } }

    /// Waits until a status satisfies `condition` (delivered through the listener queue, so
    /// document events sent before it are recorded).
    func wait(
        timeout: TimeInterval = 30, until condition: @escaping (Replicator.Status) -> Bool
    ) async throws -> Replicator.Status {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = lock.withLock({ statuses.last(where: condition) }) { return status }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        throw TestTimeout(message: "no status matched within \(timeout) s; seen: \(activities)")
    }

    func waitUntilStopped(timeout: TimeInterval = 30) async throws -> Replicator.Status {
        try await wait(timeout: timeout) { $0.activity == .stopped }
    }
}

struct TestTimeout: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Runs a replication to its end and returns what it did.
func replicate(
    _ local: Collection, with url: URL, type: ReplicatorType = .pushAndPull, reset: Bool = false,
    configure: (inout ReplicatorConfiguration) -> Void = { _ in },
    collectionConfig: CollectionConfiguration? = nil
) async throws -> ReplicationOutcome {
    var config = ReplicatorConfiguration(target: URLEndpoint(url: url))
    config.replicatorType = type
    config.maxAttemptWaitTime = 0.05
    config.addCollection(local, config: collectionConfig)
    configure(&config)
    let replicator = Replicator(config: config)
    let recorder = ReplicationRecorder(replicator)
    replicator.start(reset: reset)
    let status = try await recorder.waitUntilStopped()
    return ReplicationOutcome(
        status: status, activities: recorder.activities, pushed: recorder.pushed, pulled: recorder.pulled,
        report: replicator.checkpointReport(for: local))
}

/// Waits until `condition` holds, polling.
func eventually(timeout: TimeInterval = 30, _ what: String, _ condition: () throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return }
        try await Task.sleep(nanoseconds: 20_000_000)
    }
    throw TestTimeout(message: "timed out waiting for \(what)")
}
