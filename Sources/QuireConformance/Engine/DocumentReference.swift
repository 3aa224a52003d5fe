import Quire

/// Spec files name collections with Quire's own type: `scope.collection`, or a bare
/// `collection` in the `_default` scope; no name at all means `_default._default`.
package typealias CollectionName = Quire.CollectionName

/// A document by collection and ID.
package struct DocumentReference: Sendable, Hashable, CustomStringConvertible {
    /// The collection.
    package var collection: CollectionName
    /// The document ID.
    package var id: String

    /// Makes a reference.
    package init(_ id: String, in collection: CollectionName = .default) {
        self.id = id
        self.collection = collection
    }

    /// `'id' in scope.collection`.
    package var description: String { "'\(id)' in \(collection)" }
}
