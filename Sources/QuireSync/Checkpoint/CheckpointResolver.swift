import Quire

/// Decides where a replication starts from its local and remote checkpoint documents.
///
/// CouchDB's rule: when the two agree on the latest session, resume from it; when they do
/// not (one side's write failed, or the local database was restored from a backup), resume
/// from the newest session both record; with none in common, start over. When a session is
/// common but its two records differ, the smaller sequence of each direction is taken; an
/// opaque remote sequence that differs between the two starts pulling over.
enum CheckpointResolver {
    struct Resolution: Equatable {
        var outcome: CheckpointReport.Outcome
        var remoteSequence: ChangesSequence = .zero
        var localSequence: UInt64 = 0
        var warnings: [CheckpointReport.Warning] = []
    }

    static func resolve(
        local: ReplicationCheckpoint?, remote: ReplicationCheckpoint?, currentUUID: String, readUUID: String?,
        databasePath: String
    ) -> Resolution {
        guard let local else { return Resolution(outcome: .noLocalCheckpoint) }
        if readUUID == currentUUID, let recorded = local.databasePath, recorded != databasePath {
            return Resolution(
                outcome: .uuidNotRegenerated(recordedPath: recorded),
                warnings: [.uuidNotRegenerated(recordedPath: recorded)])
        }
        guard let remote else { return Resolution(outcome: .noRemoteCheckpoint) }
        var warnings: [CheckpointReport.Warning] = []
        let localSessions = Set(local.history.map(\.sessionID))
        let remoteSessions = Set(remote.history.map(\.sessionID))
        if let remoteNewest = remote.history.first?.sessionID, let localNewest = local.history.first?.sessionID,
            !localSessions.contains(remoteNewest), !remoteSessions.contains(localNewest)
        {
            warnings.append(.sharedPrivateUUID(remoteSession: remoteNewest, localSession: localNewest))
        }
        for (index, entry) in local.history.enumerated() {
            guard let match = remote.history.first(where: { $0.sessionID == entry.sessionID }) else { continue }
            let newestOnBoth = index == 0 && remote.history.first?.sessionID == entry.sessionID
            return Resolution(
                outcome: newestOnBoth ? .resumed : .resumedFromCommonSession(entry.sessionID),
                remoteSequence: earlier(entry.recordedSequence, match.recordedSequence),
                localSequence: min(entry.localSequence, match.localSequence), warnings: warnings)
        }
        return Resolution(outcome: .noCommonSession, warnings: warnings)
    }

    /// The earlier of two remote sequences recorded for one session: either when equal, the
    /// smaller when both are integers (or decimal strings); otherwise they cannot be ordered
    /// and pulling starts over.
    static func earlier(_ lhs: ChangesSequence, _ rhs: ChangesSequence) -> ChangesSequence {
        if lhs == rhs { return lhs }
        if let left = integer(lhs.value), let right = integer(rhs.value) { return left <= right ? lhs : rhs }
        return .zero
    }

    private static func integer(_ value: JSONValue) -> UInt64? {
        switch value {
        case .int(let number): return number >= 0 ? UInt64(number) : nil
        case .string(let text): return UInt64(text)
        default: return nil
        }
    }
}
