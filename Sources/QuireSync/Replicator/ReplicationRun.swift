import Foundation
import Quire

/// One start of a replicator: connect, read checkpoints, run the push and pull workers of
/// every collection, and on a network failure go offline, wait and start over from the
/// checkpoints saved so far.
struct ReplicationRun: Sendable {
    let monitor: ReplicationMonitor
    let config: ReplicatorConfiguration
    let url: NormalizedURL
    let entries: [(collection: Collection, config: CollectionConfiguration)]
    let reset: Bool
    /// The run's ID in checkpoints (``Replicator/correlationID``).
    let sessionID: String

    func execute() async {
        let schedule = RetrySchedule(
            maxAttempts: config.effectiveMaxAttempts, maxWait: config.effectiveMaxAttemptWaitTime)
        var failures: UInt = 0
        var resetting = reset
        // Closing or deleting a replicated database stops the replicator, as in Couchbase Lite.
        let registrations = entries.compactMap { entry in
            entry.collection.database.users.add { [monitor] in monitor.stopReplicator() }.map {
                (entry.collection.database.users, $0)
            }
        }
        defer { for (users, id) in registrations { users.remove(id) } }
        while true {
            monitor.connecting()
            do {
                try await runOnce(sessionID: sessionID, reset: resetting)
                monitor.finish(nil)
                return
            } catch {
                if monitor.takeProgress() {
                    failures = 0
                    resetting = false
                }
                if Task.isCancelled || error is CancellationError {
                    monitor.finish(nil)
                    return
                }
                let failure = ReplicationRun.quireError(error)
                failures += 1
                guard HTTPTransport.isTransient(failure), let delay = schedule.delay(afterFailures: failures) else {
                    monitor.finish(failure)
                    return
                }
                monitor.offline(failure)
                do {
                    // The database clock times the wait, so a test with a ManualClock advances it.
                    let clock = entries.first?.collection.database.config.clock ?? SystemClock()
                    try await clock.sleep(seconds: delay)
                } catch {
                    monitor.finish(nil)
                    return
                }
            }
        }
    }

    private func runOnce(sessionID: String, reset: Bool) async throws {
        #if TLS
            // HTTPS through a loopback forwarder that checks the certificate Quire's way.
            let forwarder: TLSForwarder?
            if url.scheme == "https" {
                forwarder = try await TLSForwarder.start(
                    host: url.host, port: url.port, trust: ServerTrust(config), connectTimeout: config.requestTimeout,
                    presented: { [monitor] in monitor.serverPresented($0) })
            } else {
                forwarder = nil
            }
            defer { forwarder?.close() }
            let route = forwarder.map { forwarder in
                LoopbackRoute(
                    remoteScheme: url.scheme, remoteHost: url.host, remotePort: url.port, localPort: forwarder.port,
                    takeFailure: { forwarder.takeFailure() })
            }
        #else
            let route: LoopbackRoute? = nil
        #endif
        let transport = HTTPTransport(
            requestTimeout: config.requestTimeout, maximumResponseBytes: config.maximumResponseBytes, route: route,
            countBytes: { [monitor] in monitor.countTransferred($0) })
        defer { transport.invalidate() }
        var headers = ["User-Agent": "Quire/\(QuireSync.version)"]
        for (name, value) in config.headers ?? [:] { headers[name] = value }
        for (name, value) in config.authenticator?.authorizationHeaders() ?? [:] { headers[name] = value }
        guard let database = entries.first?.collection.database else { return }
        let uuid = try await DatabaseWork.shared.read { try database.privateUUID() }
        var jobs: [CollectionReplication] = []
        // Also when setting up a later collection fails, the earlier ones stop listening.
        defer { jobs.forEach { $0.wakeup?.close() } }
        for (collection, collectionConfig) in entries {
            let remote = RemoteDatabase(
                url: url.keyspace(scope: collection.scope.name, collection: collection.name), transport: transport,
                headers: headers, requestTimeout: config.requestTimeout)
            _ = try await remote.info(creating: config.createsMissingTarget && config.replicatorType != .pull)
            let inputs = CheckpointInputs(
                uuid: uuid, remoteURL: url, collection: collection.fullName, channels: collectionConfig.channels ?? [],
                filter: collectionConfig.filter, filterParameters: collectionConfig.filterParameters ?? [:],
                documentIDs: collectionConfig.documentIDs ?? [])
            let checkpointer = try await Checkpointer.load(
                inputs: inputs, collection: collection, remote: remote, reset: reset, sessionID: sessionID)
            monitor.report(checkpointer.report, for: collection)
            jobs.append(
                CollectionReplication(
                    collection: collection, config: collectionConfig, remote: remote,
                    fetcher: RevisionFetcher(remote: remote), checkpointer: checkpointer, monitor: monitor,
                    wakeup: config.replicatorType.pushes
                        ? PushWakeup(collection: collection, pullRunning: config.replicatorType.pulls) : nil,
                    continuous: config.continuous, heartbeat: config.effectiveHeartbeat,
                    requestTimeout: config.requestTimeout,
                    autoPurge: config.enableAutoPurge))
        }
        var workers: [String] = []
        for job in jobs {
            if config.replicatorType.pushes { workers.append("push \(job.collection.fullName)") }
            if config.replicatorType.pulls { workers.append("pull \(job.collection.fullName)") }
        }
        monitor.connected(workers: workers)
        let type = config.replicatorType
        try await withThrowingTaskGroup(of: Void.self) { group in
            for job in jobs {
                if type.pushes { group.addTask { try await Pusher(job: job).run() } }
                if type.pulls { group.addTask { try await Puller(job: job).run() } }
            }
            // next(), not waitForAll(): the first failure must end the run at once, and leaving
            // the group cancels the other workers (a waiting pusher would never end by itself).
            while try await group.next() != nil {}
        }
    }

    /// Any error as a ``QuireError``.
    static func quireError(_ error: Error) -> QuireError {
        if let error = error as? QuireError { return error }
        return QuireError(.unexpectedError, "replication failed: \(error)")
    }
}
