/// Documents a replicator just pushed or pulled, given to document-replication listeners.
public struct DocumentReplication: Sendable {
    /// The replicator.
    public let replicator: Replicator
    /// Whether the documents were pushed (else pulled).
    public let isPush: Bool
    /// The documents.
    public let documents: [ReplicatedDocument]
}
