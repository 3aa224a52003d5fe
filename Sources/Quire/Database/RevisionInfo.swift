/// Facts about the stored revision of a document, deleted ones included.
package struct RevisionInfo: Sendable, Equatable {
    /// The document ID.
    package let id: String
    /// The current revision ID.
    package let revisionID: String
    /// The collection sequence of the current revision.
    package let sequence: UInt64
    /// Whether the current revision is a tombstone.
    package let isDeleted: Bool
    /// Ancestor revision IDs, newest first, pruned to the configured depth.
    package let history: [String]
}
