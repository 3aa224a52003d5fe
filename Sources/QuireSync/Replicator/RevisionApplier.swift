import Foundation
import Quire

/// Stores one pulled revision: access removals purge, the pull filter may skip, blobs are
/// checked and stored before the revision, and a revision that does not descend from the
/// local current one is a conflict for the resolver.
struct RevisionApplier {
    let job: CollectionReplication

    /// The replicated document to report, or nil when the revision was skipped or known.
    func apply(_ revision: PulledRevision) throws -> ReplicatedDocument? {
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
            outcome = try collection.insert(foreign)
        } catch let error as QuireError where error.domain == .quire {
            // The store refuses this document (its ID or body breaks a rule): report it and go on.
            return job.replicatedDocument(id, flags: flags, error: error)
        }
        guard case .inserted = outcome else { return nil }
        if let before, before.revisionID != foreign.revisionID, !foreign.ancestors.contains(before.revisionID),
            !(before.isDeleted && foreign.isDeleted)
        {
            do {
                try resolve(id: id, localRevision: before.revisionID, remoteRevision: foreign.revisionID)
            } catch let error as QuireError where error.domain == .quire {
                return job.replicatedDocument(id, flags: flags, error: error)
            }
        }
        return job.replicatedDocument(id, flags: flags)
    }

    /// Attachments the document's stored leaves already have, by name, for stubs a peer sends
    /// with a digest other than `sha1-`.
    private func knownAttachments(_ id: String) throws -> [String: JSONValue] {
        var known: [String: JSONValue] = [:]
        for leaf in try job.collection.leaves(id: id) {
            for (name, value) in leaf.body["_attachments"]?.objectValue ?? [:] { known[name] = value }
        }
        return known
    }

    private func resolve(id: String, localRevision: String, remoteRevision: String) throws {
        let collection = job.collection
        let local = try collection.document(id: id, revisionID: localRevision)
        let remote = try collection.document(id: id, revisionID: remoteRevision)
        let conflict = Conflict(
            documentID: id, localDocument: local?.isDeleted == false ? local : nil,
            remoteDocument: remote?.isDeleted == false ? remote : nil)
        let resolver = job.config.conflictResolver ?? ConflictResolver.default
        let resolved = resolver.resolve(conflict: conflict)
        if let resolved, resolved.id != id {
            throw QuireError(
                .conflict, "the conflict resolver for '\(id)' returned document '\(resolved.id)'; it must keep the ID")
        }
        try collection.resolveConflict(id: id, with: resolved)
    }
}
