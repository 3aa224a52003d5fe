/// What a save or delete does when the stored document changed since it was read.
public enum ConcurrencyControl: Sendable {
    /// The change wins: it becomes the next revision after whatever is stored.
    case lastWriteWins
    /// The save or delete returns false and changes nothing.
    case failOnConflict
}

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
