/// Where a replication of one collection started, and why: the answer to "did it resume?".
public struct CheckpointReport: Sendable, Equatable {
    /// Why replication started where it did.
    public enum Outcome: Sendable, Equatable {
        /// Both sides agreed on the latest session: replication resumed from it.
        case resumed
        /// The local and remote checkpoints disagreed; replication resumed from the latest
        /// session both record (CouchDB's rule), with that session's ID.
        case resumedFromCommonSession(String)
        /// `start(reset: true)` asked for a replication from the beginning.
        case reset
        /// No local checkpoint under this ID or any previous UUID's.
        case noLocalCheckpoint
        /// The local checkpoint exists but the remote has none (a new or recreated remote).
        case noRemoteCheckpoint
        /// Both exist but share no session.
        case noCommonSession
        /// The local checkpoint was saved with this database's UUID at another path: the
        /// database was copied without `Database.copy`, so its UUID is shared with the
        /// original and the checkpoint cannot be trusted.
        case uuidNotRegenerated(recordedPath: String)
    }

    /// Something suspicious noticed about the checkpoints.
    public enum Warning: Sendable, Equatable {
        /// The remote checkpoint was last written by a session this database never knew, and
        /// it does not know this database's latest session either: another database with the
        /// same private UUID (a file copy made without `Database.copy`) replicates to the same
        /// remote, and the two overwrite each other's checkpoint.
        case sharedPrivateUUID(remoteSession: String, localSession: String)
        /// See ``Outcome/uuidNotRegenerated(recordedPath:)``.
        case uuidNotRegenerated(recordedPath: String)
    }

    /// The checkpoint ID the replication saves to (made with the current UUID).
    public let checkpointID: String
    /// The checkpoint ID the starting point was read from: a previous UUID's after
    /// `Database.copy`; nil when nothing was read.
    public let resumedCheckpointID: String?
    /// The UUID of ``resumedCheckpointID``.
    public let resumedUUID: String?
    /// Why replication started where it did.
    public let outcome: Outcome
    /// The remote sequence pulling starts after, as sent in `since` (`0` from the beginning).
    public var remoteSequence: String { startRemoteSequence.parameter }
    let startRemoteSequence: ChangesSequence
    /// The local sequence pushing starts after; 0 from the beginning.
    public let localSequence: UInt64
    /// Problems noticed.
    public let warnings: [Warning]

    /// Whether replication continues from a checkpoint rather than from the beginning.
    public var isResumed: Bool {
        switch outcome {
        case .resumed, .resumedFromCommonSession: return true
        default: return false
        }
    }
}
