import Quire
import QuireSync

/// Turns stored revisions into CouchDB document JSON, with `_revisions`, `_attachments` and
/// `_conflicts` as asked.
struct RevisionRenderer: Sendable {
    /// What to include.
    struct Options: Sendable {
        /// `_revisions` (`revs=true`).
        var revisions = false
        /// Attachment bytes instead of stubs (`attachments=true`).
        var attachmentData = false
        /// `_conflicts`, the other live leaves (`conflicts=true`), for the current revision.
        var conflicts = false
        /// `_revs_info` (`revs_info=true`): the revision and its ancestors, newest first,
        /// each `available` (its body is here), `deleted` (a tombstone) or `missing` (only
        /// its ID is kept, as for every ancestor: the store keeps the bodies of leaves).
        var revisionsInfo = false
    }

    let served: ServedCollection

    /// Every leaf of document `id`, the current one first; 404 `missing` when there is none.
    func leaves(_ id: String) throws -> [LeafRevision] {
        let leaves = try served.collection.leaves(id: id)
        guard !leaves.isEmpty else { throw HTTPFailure.notFound("missing") }
        return leaves
    }

    /// The leaf `revisionID` of `leaves`, or with `latest` the leaf that descends from it.
    static func leaf(_ revisionID: String, in leaves: [LeafRevision], latest: Bool) -> LeafRevision? {
        if let exact = leaves.first(where: { $0.revisionID == revisionID }) { return exact }
        guard latest else { return nil }
        return leaves.first { $0.ancestors.contains(revisionID) }
    }

    /// The wire form of `leaf` of document `id`.
    func document(id: String, leaf: LeafRevision, leaves: [LeafRevision], options: Options) throws -> CouchDocument {
        var document = try CouchDocument(id: id, leaf: leaf)
        try served.codec.encode(&document, includeData: options.attachmentData)
        if !options.revisions { document.revisions = nil }
        if options.conflicts, leaf.isCurrent {
            let others = leaves.filter { !$0.isCurrent && !$0.isDeleted }.map(\.revisionID)
            if !others.isEmpty { document.body["_conflicts"] = .array(others.map { .string($0) }) }
        }
        if options.revisionsInfo {
            let own: JSONValue = ["rev": .string(leaf.revisionID), "status": leaf.isDeleted ? "deleted" : "available"]
            document.body["_revs_info"] = .array(
                [own] + leaf.ancestors.map { ["rev": .string($0), "status": "missing"] })
        }
        return document
    }

    /// The JSON of `leaf` of document `id`.
    func json(id: String, leaf: LeafRevision, leaves: [LeafRevision], options: Options) throws -> JSONValue {
        try document(id: id, leaf: leaf, leaves: leaves, options: options).json(includeRevisions: options.revisions)
    }

    /// The JSON of the current revision of `id`, nil when the document has no trace.
    func currentJSON(id: String, options: Options) throws -> JSONValue? {
        let leaves = try served.collection.leaves(id: id)
        guard let current = leaves.first else { return nil }
        return try json(id: id, leaf: current, leaves: leaves, options: options)
    }

    /// Attachments the stored leaves of a document keep (legacy `_attachments`), by name, so
    /// incoming stubs can be matched to bytes already here.
    static func knownAttachments(_ leaves: [LeafRevision]) -> JSONObject {
        var known = JSONObject()
        for leaf in leaves.reversed() {
            for (name, meta) in leaf.body["_attachments"]?.objectMembers ?? [:] { known[name] = meta }
        }
        return known
    }
}
