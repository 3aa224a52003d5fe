/// A document as stored: what `get` and `save` return and what document-state checks read.
public struct DocumentSnapshot: Sendable, Hashable {
    /// The document's collection and ID.
    public var reference: DocumentReference
    /// The current revision (`generation-digest`).
    public var revisionID: String
    /// The collection-wide sequence of the revision.
    public var sequence: Int
    /// The document's properties.
    public var properties: [String: SpecValue]
    /// When the document expires, in milliseconds since 1970, if it does.
    public var expiration: Int?

    /// Makes a snapshot.
    public init(
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
    public static let metaKey = "_meta"

    /// The properties plus `_meta: {id, collection, revisionID, sequence, expiration?}`: the
    /// shape every engine returns for a document, so specs read the same on all of them.
    public var specValue: SpecValue {
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
public enum DocumentState: Sendable, Hashable {
    /// A live document.
    case live(DocumentSnapshot)
    /// A tombstone: the document was deleted and the deletion is kept for replication.
    case deleted(revisionID: String)
    /// Nothing: never saved, purged, or expired.
    case absent
}
