import Quire

/// One document a replicator pushed or pulled, or failed to.
public struct ReplicatedDocument: Sendable {
    /// The document's ID.
    public let id: String
    /// Whether it was a deletion, or an access removal.
    public let flags: DocumentFlags
    /// Why it was not replicated; nil on success.
    public let error: QuireError?
    /// The scope's name.
    public let scope: String
    /// The collection's name.
    public let collection: String
}
