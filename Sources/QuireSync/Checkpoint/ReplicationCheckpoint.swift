import Foundation
import Quire

/// A replicator's checkpoint document, local (`setLocalDocument`) or remote (`_local/<id>`):
/// the shared ``CheckpointDocument`` (`session_id`, `source_last_seq`, `history`,
/// `replication_id_version`) plus what push and diagnosis need.
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
/// pushed up to; `history` lists sessions newest first, at most ``historyLimit``, each with
/// both positions. The inputs of the checkpoint ID are recorded so a mismatch can be
/// explained field by field; `database_path` (local copy only) is where the database was
/// when the checkpoint was saved, which exposes a file copy that kept its UUID.
struct ReplicationCheckpoint: Sendable, Equatable {
    typealias Session = CheckpointDocument.Session

    /// How many sessions the history keeps.
    static let historyLimit = 20

    var wire: CheckpointDocument
    var localSequence: UInt64
    var inputs: CheckpointInputs?
    var databasePath: String?

    var sessionID: String { wire.sessionID }
    var remoteSequence: ChangesSequence { wire.sourceLastSequence }
    /// Sessions, newest first; never empty.
    var history: [Session] { wire.history }

    init(
        sessionID: String, remoteSequence: ChangesSequence, localSequence: UInt64, history: [Session],
        inputs: CheckpointInputs?, databasePath: String?, revision: String?
    ) {
        wire = CheckpointDocument(
            sessionID: sessionID, sourceLastSequence: remoteSequence,
            history: Array(history.prefix(ReplicationCheckpoint.historyLimit)), revisionID: revision)
        self.localSequence = localSequence
        self.inputs = inputs
        self.databasePath = databasePath
    }

    /// Reads a checkpoint document; a malformed one is an error naming the field, since
    /// resuming from a misread sequence could skip changes.
    init(json: JSONObject, origin: String) throws {
        let context = "checkpoint \(origin)"
        wire = try PeerResponse.decode(context) { try CheckpointDocument(json: .object(json)) }
        localSequence = try ReplicationCheckpoint.sequence(json["local_last_seq"], "local_last_seq", context) ?? 0
        for (index, session) in wire.history.enumerated() {
            _ = try ReplicationCheckpoint.sequence(
                session.extra["recorded_local_seq"], "history[\(index)].recorded_local_seq", context)
        }
        if wire.history.isEmpty {
            wire.history = [ReplicationCheckpoint.session(wire.sessionID, wire.sourceLastSequence, localSequence)]
        }
        inputs = CheckpointInputs(recordedIn: json)
        databasePath = json["database_path"]?.stringValue
    }

    private static func sequence(_ value: JSONValue?, _ field: String, _ context: String) throws -> UInt64? {
        guard let value, !value.isNull else { return nil }
        guard let number = value.int64Value, number >= 0 else {
            throw PeerResponse.malformed(
                context, "\(field) is \(PeerResponse.describe(value)), expected a non-negative integer")
        }
        return UInt64(number)
    }

    /// A history entry.
    static func session(_ id: String, _ remote: ChangesSequence, _ local: UInt64, endTime: String? = nil) -> Session {
        var extra: JSONObject = ["recorded_local_seq": .int(Int64(clamping: local))]
        if let endTime { extra["end_time"] = .string(endTime) }
        return Session(sessionID: id, recordedSequence: remote, extra: extra)
    }

    /// The body to store; `local` adds the database path and leaves out the remote `_rev`.
    func json(local: Bool) -> JSONObject {
        var members = inputs.map(\.hashedFields) ?? [:]
        for (key, value) in wire.json.objectMembers ?? [:] where !(local && key == "_rev") { members[key] = value }
        members["local_last_seq"] = .int(Int64(clamping: localSequence))
        if local, let databasePath { members["database_path"] = .string(databasePath) }
        return members
    }
}

extension CheckpointDocument.Session {
    /// The local sequence the session had pushed up to (`recorded_local_seq`), 0 when absent.
    var localSequence: UInt64 {
        UInt64(clamping: max(0, extra["recorded_local_seq"]?.int64Value ?? 0))
    }
}
