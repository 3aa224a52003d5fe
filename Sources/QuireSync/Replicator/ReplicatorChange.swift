/// A change of a replicator's status, given to change listeners.
public struct ReplicatorChange: Sendable {
    /// The replicator.
    public let replicator: Replicator
    /// Its new status.
    public let status: Replicator.Status
}
