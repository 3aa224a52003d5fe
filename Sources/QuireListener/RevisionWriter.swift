import Quire
import QuireSync

/// Writes documents that arrive over the wire: normal edits (`new_edits=true`, checked
/// against the current revision) and replicated revisions inserted as they are
/// (`new_edits=false`). Attachment bytes are checked and stored first.
struct RevisionWriter: Sendable {
    let served: ServedCollection
    /// What to do with a replicated revision that makes a conflict.
    var conflicts: URLEndpointListenerConfiguration.Conflicts

    private var collection: Collection { served.collection }

    /// Top-level members with a leading underscore that a body may keep: those CouchDB's
    /// `couch_doc:transfer_fields` lets through besides the metadata ``CouchDocument`` takes
    /// out (the replicator's `_replication_*` state, `_access`), and Sync Gateway's
    /// `_removed`, which Couchbase Lite keeps. Any other is CouchDB's 400 `doc_validation`
    /// "Bad special document member".
    static let allowedSpecialMembers: Set<String> = [
        "_removed", "_access", "_replication_state", "_replication_state_time", "_replication_state_reason",
        "_replication_id", "_replication_stats",
    ]

    /// Applies `document`; returns the revision ID it now has.
    func write(_ document: CouchDocument, newEdits: Bool) throws -> String {
        for key in document.body.keys where key.hasPrefix("_") && !RevisionWriter.allowedSpecialMembers.contains(key) {
            throw HTTPFailure(
                status: .badRequest, error: "doc_validation", reason: "Bad special document member: \(key.prefix(80))")
        }
        // A normal edit is checked against the current revision before any attachment bytes
        // are stored, so a refused one leaves no blob file behind.
        let current = newEdits ? try checkEdit(document) : nil
        let leaves = try collection.leaves(id: document.id)
        let body = try served.codec.decode(document, known: RevisionRenderer.knownAttachments(leaves))
        if !newEdits {
            let revision = try document.foreignRevision(body: body)
            if conflicts == .refuse { try RevisionWriter.refuseConflict(revision, leaves: leaves) }
            try collection.insert(revision)
            return revision.revisionID
        }
        return try edit(document, current: current, body: body)
    }

    /// The current document, when `document` may be applied to it as a normal edit: `_rev`
    /// must name the current revision (or be absent for a new or deleted document). 404
    /// for deleting what is not there, 409 for any other mismatch.
    private func checkEdit(_ document: CouchDocument) throws -> Document? {
        let current = try collection.document(id: document.id)
        if document.isDeleted {
            guard let current else {
                let known = try collection.revisionInfo(id: document.id) != nil
                throw HTTPFailure.notFound(known ? "deleted" : "missing")
            }
            guard document.revisionID == current.revisionID else { throw HTTPFailure.conflict }
            return current
        }
        if let current {
            guard document.revisionID == current.revisionID else { throw HTTPFailure.conflict }
        } else if let given = document.revisionID {
            // Only the tombstone's own revision may be named when reviving a deleted document.
            guard let info = try collection.revisionInfo(id: document.id), info.isDeleted, info.revisionID == given
            else {
                throw HTTPFailure.conflict
            }
        }
        return current
    }

    /// With ``URLEndpointListenerConfiguration/Conflicts-swift.enum/refuse``: refuses a
    /// replicated revision that would leave the document with a live revision it
    /// does not descend from (a conflict), with 409 `conflict`, as Couchbase Lite's listener
    /// refuses incoming conflicts (`noIncomingConflicts`): the pushing side keeps its revision
    /// and resolves the conflict when it pulls. A deletion never makes a live conflict, so a
    /// tombstone closing a branch (how a resolved conflict arrives) is taken, and so is a
    /// revision the document already has.
    static func refuseConflict(_ revision: ForeignRevision, leaves: [LeafRevision]) throws {
        guard !revision.isDeleted else { return }
        if leaves.contains(where: { $0.revisionID == revision.revisionID || $0.ancestors.contains(revision.revisionID) }
        ) {
            return
        }
        let ancestors = Set(revision.ancestors)
        if leaves.contains(where: { !$0.isDeleted && !ancestors.contains($0.revisionID) }) {
            throw HTTPFailure.conflict
        }
    }

    /// A normal edit of `current` (checked by ``checkEdit(_:)``); the save itself still fails
    /// with 409 when another write came in between.
    private func edit(_ document: CouchDocument, current: Document?, body: JSONObject) throws -> String {
        if document.isDeleted {
            guard let current, try collection.delete(document: current, concurrencyControl: .failOnConflict) else {
                throw HTTPFailure.conflict
            }
            return try current.revisionID ?? currentRevision(document.id)
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
