/// The changes one transaction made to one collection, delivered to collection listeners.
public struct CollectionChange: Sendable {
    /// The collection the listener was added to.
    public let collection: Collection
    /// The IDs of the documents saved, deleted, purged or expired, in the order the
    /// transaction first touched them.
    public let documentIDs: [String]
}
