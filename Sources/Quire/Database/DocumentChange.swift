/// A change to one document, delivered to document listeners.
public struct DocumentChange: Sendable {
    /// The collection the listener was added to.
    public let collection: Collection
    /// The document that changed.
    public let documentID: String
}
