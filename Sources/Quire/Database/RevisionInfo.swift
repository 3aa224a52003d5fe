/// Facts about the stored revision of a document, deleted ones included.
public struct RevisionInfo: Sendable, Equatable {
    /// The document ID.
    public let id: String
    /// The current revision ID.
    public let revisionID: String
    /// The collection sequence of the current revision.
    public let sequence: UInt64
    /// Whether the current revision is a tombstone.
    public let isDeleted: Bool
    /// Ancestor revision IDs, newest first, pruned to the configured depth.
    public let history: [String]
}
