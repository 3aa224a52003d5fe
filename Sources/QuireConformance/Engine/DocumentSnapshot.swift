/// A document as stored: what `get` and `save` return and what document-state checks read.
package struct DocumentSnapshot: Sendable, Hashable {
    /// The document's collection and ID.
    package var reference: DocumentReference
    /// The current revision (`generation-digest`).
    package var revisionID: String
    /// The collection-wide sequence of the revision.
    package var sequence: Int
    /// The document's properties.
    package var properties: [String: SpecValue]
    /// When the document expires, in milliseconds since 1970, if it does.
    package var expiration: Int?

    /// Makes a snapshot.
    package init(
        _ reference: DocumentReference, revisionID: String, sequence: Int,
        properties: [String: SpecValue], expiration: Int? = nil
    ) {
        self.reference = reference
        self.revisionID = revisionID
        self.sequence = sequence
        self.properties = properties
        self.expiration = expiration
    }

    /// The key that carries a document's metadata in step results.
    package static let metaKey = "_meta"

    /// The properties plus `_meta: {id, collection, revisionID, sequence, expiration?}`: the
    /// shape every engine returns for a document, so specs read the same on all of them.
    package var specValue: SpecValue {
        var meta: [String: SpecValue] = [
            "id": .string(reference.id),
            "collection": .string(reference.collection.fullName),
            "revisionID": .string(revisionID),
            "sequence": .int(sequence),
        ]
        if let expiration { meta["expiration"] = .int(expiration) }
        var value = properties
        value[Self.metaKey] = .object(meta)
        return .object(value)
    }
}

/// What a store holds for a document ID.
package enum DocumentState: Sendable, Hashable {
    /// A live document.
    case live(DocumentSnapshot)
    /// A tombstone: the document was deleted and the deletion is kept for replication.
    case deleted(revisionID: String)
    /// Nothing: never saved, purged, or expired.
    case absent
}
