import Foundation
import Quire

/// Pushes one collection: reads the local changes feed from the checkpoint, offers each
/// changed document's leaf revisions to `_revs_diff`, and uploads the missing ones with
/// `_bulk_docs` (`new_edits: false`), with `_revisions` ancestry and blobs inline. Leaves other
/// than the current revision are normally the tombstones that close resolved conflicts, so
/// the remote sees the resolution too. The checkpoint moves after each batch; a continuous
/// pusher then waits for the collection to change.
struct Pusher: Sendable {
    /// Local changes read per batch.
    static let changesLimit = 200
    /// Documents per `_bulk_docs` request.
    static let uploadLimit = 50
    /// Approximate bytes per `_bulk_docs` request (a single larger document still goes alone).
    static let uploadBytes = 8 << 20

    let job: CollectionReplication
    private var worker: String { "push \(job.collection.fullName)" }

    func run() async throws {
        var since = await job.checkpointer.startLocalSequence
        var wakeups = job.wakeup?.signals.makeAsyncIterator()
        while true {
            try Task.checkCancellation()
            job.monitor.busy(worker)
            let (collection, from) = (job.collection, since)
            let entries = try await DatabaseWork.shared.read {
                try collection.changes(since: from, limit: Pusher.changesLimit)
            }
            if entries.isEmpty {
                job.monitor.idle(worker)
                if !job.continuous && job.wakeup?.isPullFinished ?? true { return }
                // Wait for a local change or the end of the pull (nil: cancelled or closed).
                guard await wakeups?.next() != nil else { throw CancellationError() }
                continue
            }
            job.monitor.found(entries.count)
            try await push(entries)
            job.monitor.processed(entries.count)
            if let last = entries.last?.sequence {
                since = last
                await job.checkpointer.recordPush(last)
                try await job.checkpointer.save()
                job.monitor.savedCheckpoint()
            }
        }
    }

    private func push(_ entries: [ChangeEntry]) async throws {
        let job = job
        let (offered, leavesByID) = try await DatabaseWork.shared.read { try Pusher.offers(entries, job: job) }
        try Task.checkCancellation()
        let missing = try await job.remote.revsDiff(offered)
        let uploads = try await DatabaseWork.shared.read {
            try Pusher.uploads(missing: missing, leavesByID: leavesByID, job: job)
        }
        var start = 0
        while start < uploads.count {
            try Task.checkCancellation()
            var end = start
            var bytes = 0
            while end < uploads.count,
                end == start || (end - start < Pusher.uploadLimit && bytes + uploads[end].size <= Pusher.uploadBytes)
            {
                bytes += uploads[end].size
                end += 1
            }
            job.monitor.replicated(try await upload(uploads[start..<end]), isPush: true)
            start = end
        }
    }

    /// The leaf revisions of each of `entries` to offer to `_revs_diff` (IDs allowed, push
    /// filter passed), read on a store thread; a document whose ID no peer takes is reported
    /// as failed instead.
    private static func offers(_ entries: [ChangeEntry], job: CollectionReplication) throws -> (
        offered: [JSONKey: [String]], leavesByID: [JSONKey: [LeafRevision]]
    ) {
        let collection = job.collection
        let allowed = job.documentIDs
        var offered: [JSONKey: [String]] = [:]
        var leavesByID: [JSONKey: [LeafRevision]] = [:]
        for entry in entries where allowed?.contains(JSONKey(entry.documentID)) ?? true {
            do {
                try DocumentRules.validate(id: entry.documentID)
            } catch let error as QuireError {
                // Stored under an earlier, looser rule (IDs of up to 250 bytes, '_' first,
                // control characters): no Couchbase peer takes it either, so it is this
                // document's error and the others go on.
                let flags: DocumentFlags = entry.isDeleted ? .deleted : []
                job.monitor.replicated(
                    [job.replicatedDocument(entry.documentID, flags: flags, error: error)], isPush: true)
                continue
            }
            if let filter = job.config.pushFilter {
                guard let document = try collection.document(id: entry.documentID, revisionID: entry.revisionID) else {
                    continue
                }
                guard filter(document, document.isDeleted ? .deleted : []) else { continue }
            }
            let leaves = try collection.leaves(id: entry.documentID)
            guard !leaves.isEmpty else { continue }
            leavesByID[JSONKey(entry.documentID)] = leaves
            offered[JSONKey(entry.documentID)] = leaves.map(\.revisionID)
        }
        return (offered, leavesByID)
    }

    /// The uploads for the revisions the remote lacks, blobs read inline on a store thread.
    private static func uploads(
        missing: [JSONKey: [String]], leavesByID: [JSONKey: [LeafRevision]], job: CollectionReplication
    ) throws -> [Upload] {
        var uploads: [Upload] = []
        for (key, revisions) in missing.sorted(by: { $0.key < $1.key }) {
            let id = key.text
            // Tombstones first: a branch a resolved conflict closed must be closed on the
            // remote before the winner arrives, or the remote refuses the winner as a conflict.
            let leaves = leavesByID[key] ?? []
            for leaf in leaves.filter(\.isDeleted) + leaves.filter({ !$0.isDeleted })
            where revisions.contains(leaf.revisionID) {
                do {
                    let json = try wireDocument(id: id, leaf: leaf, job: job)
                    uploads.append(
                        Upload(id: id, deleted: leaf.isDeleted, json: json, size: try JSONWriter.bytes(json).count))
                } catch let error as QuireError {
                    job.monitor.replicated(
                        [job.replicatedDocument(id, flags: leaf.isDeleted ? .deleted : [], error: error)], isPush: true)
                }
            }
        }
        return uploads
    }

    private struct Upload: Sendable {
        let id: String
        let deleted: Bool
        let json: JSONValue
        let size: Int
    }

    /// Uploads `chunk`; when the remote finds the request too large (413), uploads each half
    /// alone, down to a single document, which is then reported as failed.
    private func upload(_ chunk: ArraySlice<Upload>) async throws -> [ReplicatedDocument] {
        do {
            let errors = try await job.remote.bulkDocs(chunk.map(\.json))
            return chunk.map {
                job.replicatedDocument($0.id, flags: $0.deleted ? .deleted : [], error: errors[JSONKey($0.id)])
            }
        } catch let error as QuireError where error.code == .httpEntityTooLarge {
            guard chunk.count > 1 else {
                return chunk.map { job.replicatedDocument($0.id, flags: $0.deleted ? .deleted : [], error: error) }
            }
            let middle = chunk.startIndex + chunk.count / 2
            return try await upload(chunk[chunk.startIndex..<middle]) + upload(chunk[middle..<chunk.endIndex])
        }
    }

    /// The document as `_bulk_docs` wants it: body, `_id`, `_rev`, `_revisions`, `_deleted`
    /// and `_attachments` with blob content inline.
    private static func wireDocument(id: String, leaf: LeafRevision, job: CollectionReplication) throws -> JSONValue {
        var document = try CouchDocument(id: id, leaf: leaf)
        try AttachmentCodec(database: job.collection.database).encode(&document, includeData: true)
        return document.json(includeRevisions: true)
    }
}
