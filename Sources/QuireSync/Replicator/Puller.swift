import Foundation
import Quire

/// Pulls one collection: reads the remote changes feed from the checkpoint, asks the local
/// revision tree which revisions are missing, fetches those, and stores each one whole
/// (blobs first), resolving the conflicts it creates. The checkpoint moves after each batch.
struct Puller: Sendable {
    /// Changes asked for per request.
    static let changesLimit = 200
    /// Revisions fetched per `_bulk_get`.
    static let fetchLimit = 50

    let job: CollectionReplication
    private var worker: String { "pull \(job.collection.fullName)" }

    func run() async throws {
        defer { job.wakeup?.pullDidFinish() }
        var since = await job.checkpointer.startRemoteSequence
        // Pulling into an empty collection with no local checkpoint, a deletion has nothing to
        // delete: LiteCore then asks only for live documents until it has caught up
        // (Replicator.cc getLocalCheckpoint, setSkipDeleted; ReplicatorLoopbackTest "Push/Pull
        // Active Only"). The feed is filtered here, so any server works.
        let collection = job.collection
        let isEmpty = try await DatabaseWork.shared.read { try collection.lastSequence() } == 0
        let skipsDeleted = isEmpty && job.checkpointer.report.outcome == .noLocalCheckpoint
        var caughtUp = false
        // Conflicts an earlier run could not resolve get another chance first.
        let leftOver = try await ConflictResolution(job: job).leftOver()
        if !leftOver.isEmpty {
            job.monitor.busy(worker)
            job.monitor.replicated(await ConflictResolution(job: job).resolve(leftOver), isPush: false)
        }
        while true {
            try Task.checkCancellation()
            let waiting = job.continuous && caughtUp
            if waiting { job.monitor.idle(worker) } else { job.monitor.busy(worker) }
            var request = ChangesRequest(since: since, limit: Puller.changesLimit)
            request.feed = waiting ? .longpoll : .normal
            request.timeout = job.heartbeat
            // Newlines well within the request timeout, so a quiet feed never looks idle.
            request.heartbeat = min(job.heartbeat, job.requestTimeout / 2)
            request.channels = job.config.channels ?? []
            request.filter = job.config.filter
            request.filterParameters = job.config.filterParameters ?? [:]
            request.documentIDs = job.config.documentIDs ?? []
            let batch = try await job.remote.changes(request)
            job.monitor.busy(worker)
            let changes = skipsDeleted && !caughtUp ? batch.results.filter { !$0.isDeleted } : batch.results
            if !changes.isEmpty {
                job.monitor.found(changes.count)
                try await apply(changes)
                job.monitor.processed(changes.count)
            }
            if batch.lastSequence != since {
                since = batch.lastSequence
                await job.checkpointer.recordPull(since)
                try await job.checkpointer.save()
                job.monitor.savedCheckpoint()
            }
            if batch.results.count < Puller.changesLimit {
                guard job.continuous else {
                    job.monitor.idle(worker)
                    return
                }
                caughtUp = true
            }
        }
    }

    /// Fetches and stores the revisions of `changes` this collection lacks. The store is
    /// read and written on store threads (``DatabaseWork/shared``), never on the task's own.
    private func apply(_ changes: [ChangesResponse.Entry]) async throws {
        let job = job
        let (wanted, refused) = try await DatabaseWork.shared.read { try Puller.wanted(changes, job: job) }
        if !refused.isEmpty { job.monitor.replicated(refused, isPush: false) }
        var start = 0
        while start < wanted.count {
            try Task.checkCancellation()
            var end = start
            var count = 0
            while end < wanted.count, count == 0 || count + wanted[end].revisions.count <= Puller.fetchLimit {
                count += wanted[end].revisions.count
                end += 1
            }
            let fetched = try await job.fetcher.fetch(Array(wanted[start..<end]))
            try Task.checkCancellation()
            let (documents, conflicts) = try await DatabaseWork.shared.write {
                var documents: [ReplicatedDocument] = []
                var conflicts: [PendingConflict] = []
                for item in fetched {
                    switch item {
                    case .revision(let revision):
                        if let document = try RevisionApplier(job: job).apply(revision, conflicts: &conflicts) {
                            documents.append(document)
                        }
                    case .failure(let id, let error):
                        documents.append(job.replicatedDocument(id, flags: [], error: error))
                    }
                }
                return (documents, conflicts)
            }
            job.monitor.replicated(documents, isPush: false)
            if !conflicts.isEmpty {
                job.monitor.replicated(await ConflictResolution(job: job).resolve(conflicts), isPush: false)
            }
            start = end
        }
    }

    /// The revisions of `changes` this collection lacks, by document, and the documents
    /// refused for an ID no store takes.
    private static func wanted(_ changes: [ChangesResponse.Entry], job: CollectionReplication) throws -> (
        wanted: [(id: String, revisions: [String])], refused: [ReplicatedDocument]
    ) {
        let collection = job.collection
        let allowed = job.documentIDs
        var wanted: [(id: String, revisions: [String])] = []
        var seen = Set<JSONKey>()
        var refused: [ReplicatedDocument] = []
        for change in changes where allowed?.contains(JSONKey(change.id)) ?? true {
            guard !change.id.hasPrefix("_design/"), seen.insert(JSONKey(change.id)).inserted else { continue }
            do {
                try DocumentRules.validate(id: change.id)
            } catch let error as QuireError {
                // Couchbase Lite refuses such a revision on insert (badDocID) and goes on with
                // the others; nothing is fetched for a document that cannot be stored.
                refused.append(job.replicatedDocument(change.id, flags: change.isDeleted ? .deleted : [], error: error))
                continue
            }
            if change.removedFrom != nil, try collection.revisionInfo(id: change.id) == nil { continue }
            let missing = try collection.missingRevisions(id: change.id, revisionIDs: change.revisionIDs).missing
            if !missing.isEmpty { wanted.append((change.id, missing)) }
        }
        return (wanted, refused)
    }
}
