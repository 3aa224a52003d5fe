import Quire

/// Writes documents that arrive over the wire: normal edits (`new_edits=true`, checked
/// against the current revision) and replicated revisions inserted as they are
/// (`new_edits=false`). Attachment bytes are checked and stored first.
struct RevisionWriter: Sendable {
    let served: ServedCollection

    private var collection: Collection { served.collection }

    /// Applies `document`; returns the revision ID it now has.
    func write(_ document: CouchDocument, newEdits: Bool) throws -> String {
        let leaves = try collection.leaves(id: document.id)
        let body = try served.codec.decode(document, known: RevisionRenderer.knownAttachments(leaves))
        if !newEdits {
            let revision = try document.foreignRevision(body: body)
            try collection.insert(revision)
            return revision.revisionID
        }
        return try edit(document, body: body)
    }

    /// A normal edit: `_rev` must name the current revision (or be absent for a new or
    /// deleted document).
    private func edit(_ document: CouchDocument, body: [String: JSONValue]) throws -> String {
        let current = try collection.document(id: document.id)
        if document.isDeleted {
            guard let current else {
                let known = try collection.revisionInfo(id: document.id) != nil
                throw HTTPFailure.notFound(known ? "deleted" : "missing")
            }
            guard document.revisionID == current.revisionID,
                try collection.delete(document: current, concurrencyControl: .failOnConflict)
            else { throw HTTPFailure.conflict }
            return try current.revisionID ?? currentRevision(document.id)
        }
        if let current {
            guard document.revisionID == current.revisionID else { throw HTTPFailure.conflict }
        } else if let given = document.revisionID {
            // Only the tombstone's own revision may be named when reviving a deleted document.
            guard let info = try collection.revisionInfo(id: document.id), info.isDeleted, info.revisionID == given else {
                throw HTTPFailure.conflict
            }
        }
        let mutable = current?.toMutable() ?? MutableDocument(id: document.id)
        try mutable.setJSON(JSONWriter.string(.object(body)))
        guard try collection.save(document: mutable, concurrencyControl: .failOnConflict) else {
            throw HTTPFailure.conflict
        }
        return try mutable.revisionID ?? currentRevision(document.id)
    }

    private func currentRevision(_ id: String) throws -> String {
        guard let info = try collection.revisionInfo(id: id) else { throw HTTPFailure.notFound("missing") }
        return info.revisionID
    }
}
