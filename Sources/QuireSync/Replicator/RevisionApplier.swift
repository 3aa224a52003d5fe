import Foundation
import Quire

/// Stores one pulled revision: access removals purge, the pull filter may skip, blobs are
/// checked and stored before the revision, and a revision that does not descend from the
/// local current one is a conflict for ``ConflictResolution``.
struct RevisionApplier {
    let job: CollectionReplication

    /// The replicated document to report, or nil when the revision was skipped or known, or
    /// made a conflict (added to `conflicts`, reported once resolved).
    func apply(_ revision: PulledRevision, conflicts: inout [PendingConflict]) throws -> ReplicatedDocument? {
        let collection = job.collection
        let id = revision.documentID
        if revision.isRemoved {
            // With auto-purge off the document stays, and the revision still ends as an access
            // removal (LiteCore IncomingRev.cc: finish() before any purge or pull filter).
            guard job.autoPurge else { return job.replicatedDocument(id, flags: .accessRemoved) }
            guard try collection.revisionInfo(id: id) != nil else { return nil }
            if let filter = job.config.pullFilter {
                let document = collection.document(for: revision.foreignRevision(body: revision.document.body))
                guard filter(document, .accessRemoved) else { return nil }
            }
            do {
                try collection.purge(id: id)
            } catch let error as QuireError where error.code == .notFound {
                return nil
            }
            return job.replicatedDocument(id, flags: .accessRemoved)
        }
        let flags: DocumentFlags = revision.isDeleted ? .deleted : []
        if let filter = job.config.pullFilter {
            let document = collection.document(for: revision.foreignRevision(body: revision.document.body))
            guard filter(document, flags) else { return nil }
        }
        let body = try PeerResponse.decode(
            "revision \(revision.revisionID) of '\(id)' from \(job.remote.url)"
        ) {
            try AttachmentCodec(database: collection.database).decode(revision.document, known: knownAttachments(id))
        }
        let foreign = revision.foreignRevision(body: body)
        let before = try collection.revisionInfo(id: id)
        let outcome: RevisionInsertOutcome
        do {
            outcome = try collection.insert(foreign, keepingCurrent: true)
        } catch let error as QuireError where error.domain == .quire {
            // The store refuses this document (its ID or body breaks a rule): report it and go on.
            return job.replicatedDocument(id, flags: flags, error: error)
        }
        guard case .inserted = outcome else { return nil }
        if let before, before.revisionID != foreign.revisionID, !foreign.ancestors.contains(before.revisionID),
            !(before.isDeleted && foreign.isDeleted)
        {
            // Resolved after the batch is stored, off the write, so a resolver may take its
            // time and use the database (Couchbase Lite resolves on a queue of its own).
            conflicts.append(
                PendingConflict(
                    documentID: id, localRevision: before.revisionID, remoteRevision: foreign.revisionID, flags: flags))
            return nil
        }
        return job.replicatedDocument(id, flags: flags)
    }

    /// Attachments the document's stored leaves already have, by name, for stubs a peer sends
    /// with a digest other than `sha1-`.
    private func knownAttachments(_ id: String) throws -> JSONObject {
        var known = JSONObject()
        for leaf in try job.collection.leaves(id: id) {
            for (name, value) in leaf.body["_attachments"]?.objectMembers ?? [:] { known[name] = value }
        }
        return known
    }
}
