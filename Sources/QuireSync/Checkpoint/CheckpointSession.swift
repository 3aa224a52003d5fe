import Quire

/// One entry of a checkpoint's history: how far one replication session had got.
public struct CheckpointSession: Sendable, Equatable {
    /// The session's random ID (one per replicator start).
    public var sessionID: String
    /// The remote sequence pulled up to (`recorded_seq`), nil before anything was pulled.
    public var remoteSequence: JSONValue?
    /// The local sequence pushed up to (`recorded_local_seq`).
    public var localSequence: UInt64
    /// When the entry was written, ISO 8601.
    public var endTime: String?

    /// Makes an entry.
    public init(sessionID: String, remoteSequence: JSONValue?, localSequence: UInt64, endTime: String? = nil) {
        self.sessionID = sessionID
        self.remoteSequence = remoteSequence
        self.localSequence = localSequence
        self.endTime = endTime
    }

    var json: JSONValue {
        var members: [String: JSONValue] = [
            "session_id": .string(sessionID),
            "recorded_seq": remoteSequence ?? .int(0),
            "recorded_local_seq": .int(Int64(clamping: localSequence)),
        ]
        if let endTime { members["end_time"] = .string(endTime) }
        return .object(members)
    }
}
