import Quire

/// A replication checkpoint, kept as the local document `_local/<replication ID>` on both
/// sides: `{"session_id", "source_last_seq", "history": [...], "replication_id_version"}`.
package struct CheckpointDocument: Equatable, Sendable {
    /// One past session in `history`, newest first.
    package struct Session: Equatable, Sendable {
        /// The session's ID.
        package var sessionID: String
        /// The source sequence the session got to.
        package var recordedSequence: ChangesSequence
        /// Other members a peer wrote (`start_time`, `docs_written` ...), kept as they are.
        package var extra: JSONObject

        /// A session from its parts.
        package init(sessionID: String, recordedSequence: ChangesSequence, extra: JSONObject = [:]) {
            self.sessionID = sessionID
            self.recordedSequence = recordedSequence
            self.extra = extra
        }

        package var json: JSONValue {
            var members = extra
            members["session_id"] = .string(sessionID)
            members["recorded_seq"] = recordedSequence.value
            return .object(members)
        }
    }

    /// The session that wrote the checkpoint.
    package var sessionID: String
    /// The source sequence everything before which has been replicated.
    package var sourceLastSequence: ChangesSequence
    /// Past sessions, newest first.
    package var history: [Session]
    /// The scheme of the replication ID.
    package var replicationIDVersion: Int
    /// The local document's revision (`0-N`) when it was read from a server.
    package var revisionID: String?

    /// A checkpoint from its parts.
    package init(
        sessionID: String, sourceLastSequence: ChangesSequence, history: [Session] = [],
        replicationIDVersion: Int = QuireSync.replicationIDVersion, revisionID: String? = nil
    ) {
        self.sessionID = sessionID
        self.sourceLastSequence = sourceLastSequence
        self.history = history
        self.replicationIDVersion = replicationIDVersion
        self.revisionID = revisionID
    }

    /// Reads a checkpoint object (as stored, or as `GET _local/...` returns it).
    package init(json: JSONValue) throws {
        guard let sessionID = json["session_id"]?.stringValue else {
            throw WireError.invalid("checkpoint", "has no string 'session_id'")
        }
        guard let last = json["source_last_seq"] else {
            throw WireError.invalid("checkpoint", "has no 'source_last_seq'")
        }
        let history = try (json["history"]?.arrayValue ?? []).map { item -> Session in
            guard let id = item["session_id"]?.stringValue, let recorded = item["recorded_seq"] else {
                throw WireError.invalid("checkpoint history", "every entry needs 'session_id' and 'recorded_seq'")
            }
            let extra = (item.objectMembers ?? [:]).filter { $0.key != "session_id" && $0.key != "recorded_seq" }
            return Session(sessionID: id, recordedSequence: try ChangesSequence(json: recorded), extra: extra)
        }
        self.init(
            sessionID: sessionID, sourceLastSequence: try ChangesSequence(json: last), history: history,
            replicationIDVersion: json["replication_id_version"]?.intValue ?? QuireSync.replicationIDVersion,
            revisionID: json["_rev"]?.stringValue)
    }

    /// The JSON object to `PUT` (with `_rev` when known, so the server accepts the update).
    package var json: JSONValue {
        var members: JSONObject = [
            "session_id": .string(sessionID),
            "source_last_seq": sourceLastSequence.value,
            "history": .array(history.map(\.json)),
            "replication_id_version": .int(Int64(replicationIDVersion)),
        ]
        if let revisionID { members["_rev"] = .string(revisionID) }
        return .object(members)
    }
}
