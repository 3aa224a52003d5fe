import Foundation
import Quire

/// A checkpoint document, local (`setLocalDocument`) or remote (`_local/<id>`).
///
/// ```json
/// {"session_id": "…", "source_last_seq": 42, "local_last_seq": 17,
///  "history": [{"session_id": "…", "recorded_seq": 42, "recorded_local_seq": 17, "end_time": "…"}],
///  "replication_id_version": 1, "uuid": "…", "remote_url": "http://h:80/db",
///  "collection": "_default._default", "channels": [], "filter": null, "filter_params": {},
///  "doc_ids": [], "database_path": "…"}
/// ```
///
/// `source_last_seq` is the remote sequence pulled up to, `local_last_seq` the local one
/// pushed up to; `history` lists sessions newest first, at most ``historyLimit``. The
/// inputs of the ID are recorded so a mismatch can be explained field by field;
/// `database_path` (local copy only) is where the database was when the checkpoint was saved,
/// which tells a file copy that kept its UUID.
struct CheckpointDocument: Sendable, Equatable {
    /// How many sessions the history keeps.
    static let historyLimit = 20

    var sessionID: String
    var remoteSequence: JSONValue?
    var localSequence: UInt64
    var history: [CheckpointSession]
    var inputs: CheckpointInputs?
    var databasePath: String?
    /// The remote document's `_rev`, needed to replace it.
    var revision: String?

    init(
        sessionID: String, remoteSequence: JSONValue?, localSequence: UInt64, history: [CheckpointSession],
        inputs: CheckpointInputs?, databasePath: String? = nil, revision: String? = nil
    ) {
        self.sessionID = sessionID
        self.remoteSequence = remoteSequence
        self.localSequence = localSequence
        self.history = history
        self.inputs = inputs
        self.databasePath = databasePath
        self.revision = revision
    }

    /// Reads a checkpoint document; a malformed one is an error naming the field, since
    /// resuming from a misread sequence could skip changes.
    init(json: [String: JSONValue], origin: String) throws {
        let reader = WireValue(.object(json), path: "", context: "checkpoint \(origin)")
        let object = try reader.object()
        sessionID = try object.string("session_id")
        remoteSequence = try object.optional("source_last_seq").map { try RemoteSequence.validate($0) }
        localSequence = try object.optional("local_last_seq")?.unsigned() ?? 0
        history = try (object.optional("history")?.array() ?? []).map { entry in
            let fields = try entry.object()
            return CheckpointSession(
                sessionID: try fields.string("session_id"),
                remoteSequence: try fields.optional("recorded_seq").map { try RemoteSequence.validate($0) },
                localSequence: try fields.optional("recorded_local_seq")?.unsigned() ?? 0,
                endTime: try fields.optional("end_time")?.string())
        }
        if history.isEmpty {
            history = [CheckpointSession(sessionID: sessionID, remoteSequence: remoteSequence, localSequence: localSequence)]
        }
        inputs = CheckpointInputs(recordedIn: json)
        databasePath = json["database_path"]?.stringValue
        revision = json["_rev"]?.stringValue
    }

    /// The body to store; `local` adds the database path, `revision` the remote `_rev`.
    func json(local: Bool) -> [String: JSONValue] {
        var members = inputs.map(\.hashedFields) ?? ["replication_id_version": .int(Int64(QuireSync.replicationIDVersion))]
        members["session_id"] = .string(sessionID)
        if let remoteSequence { members["source_last_seq"] = remoteSequence }
        members["local_last_seq"] = .int(Int64(clamping: localSequence))
        members["history"] = .array(history.prefix(Self.historyLimit).map(\.json))
        if local, let databasePath { members["database_path"] = .string(databasePath) }
        if !local, let revision { members["_rev"] = .string(revision) }
        return members
    }
}
