import Quire

/// Decides where a replication starts from its local and remote checkpoint documents.
///
/// CouchDB's rule: when the two agree on the latest session, resume from it; when they do
/// not (one side's write failed, or the local database was restored from a backup), resume
/// from the newest session both record; with none in common, start over. When a session is
/// common but its two records differ, the smaller sequence of each direction is taken, and an
/// opaque remote sequence that differs between the two starts pulling over.
enum CheckpointResolver {
    struct Resolution: Equatable {
        var outcome: CheckpointReport.Outcome
        var remoteSequence: JSONValue?
        var localSequence: UInt64
        var warnings: [CheckpointReport.Warning]
    }

    static func resolve(
        local: CheckpointDocument?, remote: CheckpointDocument?, currentUUID: String, readUUID: String?,
        databasePath: String
    ) -> Resolution {
        guard let local else { return Resolution(outcome: .noLocalCheckpoint, localSequence: 0, warnings: []) }
        if readUUID == currentUUID, let recorded = local.databasePath, recorded != databasePath {
            return Resolution(
                outcome: .uuidNotRegenerated(recordedPath: recorded), localSequence: 0,
                warnings: [.uuidNotRegenerated(recordedPath: recorded)])
        }
        guard let remote else { return Resolution(outcome: .noRemoteCheckpoint, localSequence: 0, warnings: []) }
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
                remoteSequence: RemoteSequence.earlier(entry.remoteSequence, match.remoteSequence),
                localSequence: min(entry.localSequence, match.localSequence), warnings: warnings)
        }
        return Resolution(outcome: .noCommonSession, localSequence: 0, warnings: warnings)
    }
}
