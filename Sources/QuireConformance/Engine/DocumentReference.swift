import Quire

/// Spec files name collections with Quire's own type: `scope.collection`, or a bare
/// `collection` in the `_default` scope; no name at all means `_default._default`.
public typealias CollectionName = Quire.CollectionName

/// A document by collection and ID.
public struct DocumentReference: Sendable, Hashable, CustomStringConvertible {
    /// The collection.
    public var collection: CollectionName
    /// The document ID.
    public var id: String

    /// Makes a reference.
    public init(_ id: String, in collection: CollectionName = .default) {
        self.id = id
        self.collection = collection
    }

    /// `'id' in scope.collection`.
    public var description: String { "'\(id)' in \(collection)" }
}
