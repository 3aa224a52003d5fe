import Foundation
import Quire

@testable import QuireSync

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
        tokens.append(
            replicator.addChangeListener { [self] change in lock.withLock { statuses.append(change.status) } })
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
    /// document events sent before it are recorded). The bound counts turns as well as wall
    /// time, as ``eventually(timeout:_:_:)``'s does: in a whole-suite run under
    /// ThreadSanitizer the replication's own tasks wait for the same starved pool as this poll.
    func wait(
        timeout: TimeInterval = 30, until condition: @escaping (Replicator.Status) -> Bool
    ) async throws -> Replicator.Status {
        var found: Replicator.Status?
        do {
            try await eventually(timeout: timeout, "a status") {
                found = lock.withLock { statuses.last(where: condition) }
                return found != nil
            }
        } catch is TestTimeout {}
        if let found { return found }
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

/// Waits until `condition` holds, polling every 20 ms.
///
/// The bound counts turns as well as wall time. The whole suite runs hundreds of tests at once on a
/// cooperative pool as wide as the machine has cores, so a poll can wait many seconds for a
/// thread; a wall-clock bound alone then expires after a handful of looks. The wait gives up only
/// when `timeout` has passed and it has looked at least a quarter as often as an idle pool allows,
/// or at ten times `timeout` whatever the pool does.
func eventually(timeout: TimeInterval = 30, _ what: String, _ condition: () throws -> Bool) async throws {
    let interval: UInt64 = 20_000_000
    let start = Date()
    let turnsOwed = Int(timeout * 1e9 / Double(interval)) / 4
    var turns = 0
    while true {
        if try condition() { return }
        let waited = Date().timeIntervalSince(start)
        if waited >= timeout * 10 || (waited >= timeout && turns >= turnsOwed) { break }
        try await Task.sleep(nanoseconds: interval)
        turns += 1
    }
    throw TestTimeout(message: "timed out waiting for \(what)")
}
