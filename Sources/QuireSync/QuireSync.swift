import Quire

/// Replication for Quire databases over the CouchDB replication protocol: a replicator,
/// checkpoints, and an HTTP listener serving the protocol.
public enum QuireSync {
    /// The `replication_id_version` written into checkpoint documents.
    public static let replicationIDVersion = 1
    /// The version the listener reports as its vendor version.
    public static let version = QuireVersion.current
}
