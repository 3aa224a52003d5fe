import Quire

/// One revision of a document in CouchDB's JSON form: the body plus the metadata members
/// `_id`, `_rev`, `_revisions`, `_deleted` and `_attachments`.
///
/// Decoding separates metadata from the body; encoding puts it back. The body never holds
/// `_id`, `_rev`, `_revisions` or `_deleted`; `_removed` (Sync Gateway's access-removal flag)
/// stays in it, as Couchbase Lite keeps it.
package struct CouchDocument: Equatable, Sendable {
    /// Top-level members that are metadata rather than content; CouchDB sends the read-only
    /// ones (`_conflicts` ...) only when asked, and they are dropped on the way in.
    package static let metadataKeys: Set<String> = [
        "_id", "_rev", "_revisions", "_deleted", "_attachments",
        "_conflicts", "_deleted_conflicts", "_local_seq", "_revs_info",
    ]

    /// The document ID.
    package var id: String
    /// The revision ID, when known.
    package var revisionID: String?
    /// The ancestry, `_revisions`, when sent.
    package var revisions: RevisionsField?
    /// Whether the revision is a tombstone.
    package var isDeleted: Bool
    /// The content, without metadata members. Its keys are told apart by their bytes (see
    /// ``JSONObject``), so a body keeps two keys that differ only in Unicode normalisation
    /// from the wire to the store and back, as fleece does.
    package var body: JSONObject
    /// `_attachments`, when present: attachment name to its metadata (and maybe `data`).
    package var attachments: JSONObject?

    /// A document from its parts.
    package init(
        id: String, revisionID: String?, revisions: RevisionsField? = nil, isDeleted: Bool = false,
        body: JSONObject, attachments: JSONObject? = nil
    ) {
        self.id = id
        self.revisionID = revisionID
        self.revisions = revisions
        self.isDeleted = isDeleted
        self.body = body
        self.attachments = attachments
    }

    /// Decodes a document; `id` is the ID a URL gives, which `_id` must match when both are
    /// present. `_rev` and `_revisions` must agree.
    package init(json: JSONValue, id urlID: String? = nil) throws {
        guard case .object(let members) = json else {
            throw WireError.invalid("document", "expected a JSON object")
        }
        let id: String
        switch (members["_id"], urlID) {
        case (.some(.string(let given)), .some(let expected)) where given != expected:
            throw WireError.invalid("_id", "'\(given)' does not match the document ID '\(expected)' in the URL")
        case (.some(.string(let given)), _):
            id = given
        case (.some, _):
            throw WireError.invalid("_id", "must be a string")
        case (nil, .some(let expected)):
            id = expected
        case (nil, nil):
            throw WireError.invalid("document", "has no '_id'")
        }
        guard !id.isEmpty else { throw QuireError(.badDocID, "a document ID cannot be empty") }

        var revisionID: String?
        if let rev = members["_rev"] {
            guard let text = rev.stringValue else {
                throw QuireError(
                    .badRevisionID, "invalid _rev for document '\(id)': expected a string '<generation>-<digest>'")
            }
            try RevisionID.validate(text, documentID: id)
            revisionID = text
        }
        var revisions: RevisionsField?
        if let field = members["_revisions"] {
            let parsed = try RevisionsField(json: field)
            if let revisionID, revisionID != parsed.revisionID {
                throw WireError.invalid("_revisions", "starts at '\(parsed.revisionID)' but _rev is '\(revisionID)'")
            }
            revisionID = revisionID ?? parsed.revisionID
            revisions = parsed
        }
        var isDeleted = false
        if let deleted = members["_deleted"] {
            guard let flag = deleted.boolValue else { throw WireError.invalid("_deleted", "must be true or false") }
            isDeleted = flag
        }
        var attachments: JSONObject?
        if let field = members["_attachments"], !field.isNull {
            guard let object = field.objectMembers else { throw WireError.invalid("_attachments", "must be an object") }
            attachments = object
        }
        self.init(
            id: id, revisionID: revisionID, revisions: revisions, isDeleted: isDeleted,
            body: CouchDocument.content(of: members), attachments: attachments)
    }

    /// A stored leaf in wire form (its ancestry included); legacy attachments kept in the
    /// stored body become ``attachments``.
    package init(id: String, leaf: LeafRevision) throws {
        var body = leaf.isDeleted ? [:] : leaf.body
        let attachments = body.keys.contains("_attachments") ? body.removeValue(forKey: "_attachments") : nil
        self.init(
            id: id, revisionID: leaf.revisionID,
            revisions: try RevisionsField(revisionID: leaf.revisionID, ancestors: leaf.ancestors),
            isDeleted: leaf.isDeleted, body: body, attachments: attachments?.objectMembers)
    }

    /// `members` without the metadata members, removed from one copy of the storage rather
    /// than filtered member by member into a new one (a pulled document has a few at most).
    private static func content(of members: JSONObject) -> JSONObject {
        var body = members
        for key in metadataKeys where body.keys.contains(key) { body.removeValue(forKey: key) }
        return body
    }

    /// The ancestors' revision IDs, newest first (empty without `_revisions`).
    package var ancestors: [String] { revisions?.ancestors ?? [] }

    /// The JSON object; `_revisions` only with `includeRevisions`.
    package func json(includeRevisions: Bool = true) -> JSONValue {
        var members = body
        members["_id"] = .string(id)
        if let revisionID { members["_rev"] = .string(revisionID) }
        if includeRevisions, let revisions { members["_revisions"] = revisions.json }
        if isDeleted { members["_deleted"] = .bool(true) }
        if let attachments, !attachments.isEmpty { members["_attachments"] = .object(attachments) }
        return .object(members)
    }

    /// The revision to insert as is (`new_edits=false`), with `body` as the stored body.
    package func foreignRevision(body storedBody: JSONObject) throws -> ForeignRevision {
        guard let revisionID else {
            throw QuireError(.badRevisionID, "document '\(id)' has no _rev, which new_edits=false requires")
        }
        return ForeignRevision(
            documentID: id, revisionID: revisionID, ancestors: ancestors, isDeleted: isDeleted,
            body: isDeleted ? [:] : storedBody)
    }
}
