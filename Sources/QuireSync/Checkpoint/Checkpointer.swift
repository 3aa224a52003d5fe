import Foundation
import Quire

/// Reads where one collection's replication starts, and saves how far it got, on both sides.
///
/// Push and pull record their own sequence; a save writes one document holding both, first to
/// the remote (`PUT _local/<id>`), then locally, so a crash between the two leaves the remote
/// ahead, which the next start detects and falls back from. Saves are serialised: one that
/// arrives while another is in flight is folded into a follow-up write. The local side is read
/// and written on store threads (``DatabaseWork/shared``).
actor Checkpointer {
    let inputs: CheckpointInputs
    let report: CheckpointReport
    private let collection: Collection
    private let remote: RemoteDatabase
    private let sessionID: String
    private let databasePath: String
    private var remoteSequence: ChangesSequence
    private var localSequence: UInt64
    private var history: [ReplicationCheckpoint.Session]
    private var remoteRevision: String?
    private var saving = false
    private var savePending = false

    private init(
        inputs: CheckpointInputs, report: CheckpointReport, collection: Collection, remote: RemoteDatabase,
        sessionID: String, databasePath: String, history: [ReplicationCheckpoint.Session], remoteRevision: String?
    ) {
        self.inputs = inputs
        self.report = report
        self.collection = collection
        self.remote = remote
        self.sessionID = sessionID
        self.databasePath = databasePath
        self.remoteSequence = report.startRemoteSequence
        self.localSequence = report.localSequence
        self.history = history
        self.remoteRevision = remoteRevision
    }

    /// The pull position to resume from.
    var startRemoteSequence: ChangesSequence { report.startRemoteSequence }
    /// The push position to resume from.
    var startLocalSequence: UInt64 { report.localSequence }

    /// Finds the checkpoint (under the current UUID, else a previous one's), compares the two
    /// sides and decides where to start.
    static func load(
        inputs: CheckpointInputs, collection: Collection, remote: RemoteDatabase, reset: Bool, sessionID: String
    ) async throws -> Checkpointer {
        let database = collection.database
        let databasePath = DatabaseLocation.path(of: database)
        let checkpointID = inputs.checkpointID
        let (local, readUUID) = try await DatabaseWork.shared.read {
            try findLocal(inputs: inputs, collection: collection)
        }
        let readID = readUUID.map { inputs.with(uuid: $0).checkpointID }
        let origin = "\(remote.url)/_local/"
        var remoteDocument: ReplicationCheckpoint?
        if let readID, local != nil, !reset {
            remoteDocument = try await remote.localDocument(id: readID).map {
                try ReplicationCheckpoint(json: $0, origin: origin + readID)
            }
        }
        // Replacing the remote document needs its _rev, under the ID saved to.
        var remoteRevision: String?
        if readID == checkpointID, let remoteDocument {
            remoteRevision = remoteDocument.wire.revisionID
        } else {
            remoteRevision = try await remote.localDocument(id: checkpointID)?["_rev"]?.stringValue
        }
        let resolution: CheckpointResolver.Resolution
        if reset {
            resolution = CheckpointResolver.Resolution(outcome: .reset)
        } else {
            resolution = CheckpointResolver.resolve(
                local: local, remote: remoteDocument, currentUUID: inputs.uuid, readUUID: readUUID,
                databasePath: databasePath)
        }
        let report = CheckpointReport(
            checkpointID: checkpointID, resumedCheckpointID: local == nil ? nil : readID,
            resumedUUID: local == nil ? nil : readUUID,
            outcome: resolution.outcome, startRemoteSequence: resolution.remoteSequence,
            localSequence: resolution.localSequence, warnings: resolution.warnings)
        return Checkpointer(
            inputs: inputs, report: report, collection: collection, remote: remote, sessionID: sessionID,
            databasePath: databasePath, history: local?.history ?? [], remoteRevision: remoteRevision)
    }

    /// The local checkpoint under the current UUID, else under the most recent previous UUID
    /// that has one, with the UUID it was found under.
    static func findLocal(inputs: CheckpointInputs, collection: Collection) throws -> (ReplicationCheckpoint?, String?)
    {
        let uuids = [inputs.uuid] + (try collection.database.previousPrivateUUIDs())
        for uuid in uuids {
            let id = inputs.with(uuid: uuid).checkpointID
            if let body = try collection.localDocument(id: id) {
                return (
                    try ReplicationCheckpoint(json: body, origin: "local document \(id) of \(collection.fullName)"),
                    uuid
                )
            }
        }
        return (nil, nil)
    }

    /// Records that pulling got to `sequence`.
    func recordPull(_ sequence: ChangesSequence) {
        remoteSequence = sequence
    }

    /// Records that pushing got to `sequence`.
    func recordPush(_ sequence: UInt64) {
        localSequence = sequence
    }

    /// Writes the checkpoint to both sides.
    func save() async throws {
        if saving {
            savePending = true
            return
        }
        saving = true
        defer { saving = false }
        repeat {
            savePending = false
            try await saveOnce()
        } while savePending
    }

    private func saveOnce() async throws {
        let entry = ReplicationCheckpoint.session(
            sessionID, remoteSequence, localSequence, endTime: ISO8601DateFormatter().string(from: Date()))
        let sessions = [entry] + history.filter { $0.sessionID != sessionID }
        var document = ReplicationCheckpoint(
            sessionID: sessionID, remoteSequence: remoteSequence, localSequence: localSequence, history: sessions,
            inputs: inputs, databasePath: databasePath, revision: remoteRevision)
        let id = inputs.checkpointID
        do {
            remoteRevision = try await remote.putLocalDocument(id: id, body: document.json(local: false))
        } catch let error as QuireError where error.code == .httpConflict {
            // Someone else wrote it since we read its _rev: take the new one and write ours.
            document.wire.revisionID = try await remote.localDocument(id: id)?["_rev"]?.stringValue
            remoteRevision = try await remote.putLocalDocument(id: id, body: document.json(local: false))
        } catch let error as QuireError where error.code == .httpForbidden {
            // A read-only peer (`quire serve --read-only`) keeps no checkpoint: as CouchDB's
            // replicator does with a read-only source, the checkpoint stays on this side only,
            // and the next run, finding none there, starts over (cheaply: revs_diff and the
            // local revision tree skip what is here already).
        }
        let (collection, body) = (collection, document.json(local: true))
        try await DatabaseWork.shared.write { try collection.setLocalDocument(id: id, body: body) }
        history = document.history
    }
}
