import Foundation
import Quire

/// Tells, without contacting the remote, whether a database's first replication with given
/// settings will resume from a checkpoint it stores, and when not, exactly which input
/// differs: URL form, host, port, path, collection, channels, filter, filter parameters,
/// document IDs, or a UUID that was not regenerated because the database was copied as files.
///
/// It compares field by field with the inputs every checkpoint document records.
///
/// ```swift
/// let diagnosis = try CheckpointDoctor(database: database).diagnose(
///     collection: try database.defaultCollection(), url: serverURL,
///     channels: ["news"])
/// print(diagnosis)
/// ```
package struct CheckpointDoctor: Sendable {
    /// How the database will be used.
    package enum Mode: Sendable, Equatable {
        /// The database is used where it is: a checkpoint made with its own UUID must have been
        /// saved at its own path, or it is a file copy whose UUID was not regenerated.
        case installed
        /// The database is a fixture that will be installed with `Database.copy`: its UUID
        /// becomes a previous UUID, and where it was built does not matter.
        case fixture
    }

    /// The database examined.
    package let database: Database
    /// How it will be used.
    package let mode: Mode

    /// A doctor for `database`.
    package init(database: Database, mode: Mode = .installed) {
        self.database = database
        self.mode = mode
    }

    /// Diagnoses the replication of `collection` with the remote database at `url` and the
    /// given options (as in ``CollectionConfiguration``).
    package func diagnose(
        collection: Collection, url: URL, channels: [String] = [], documentIDs: [String] = [], filter: String? = nil,
        filterParameters: [String: String] = [:]
    ) throws -> CheckpointDiagnosis {
        let currentUUID = try database.privateUUID()
        let known = [currentUUID] + (try database.previousPrivateUUIDs())
        let expected = CheckpointInputs(
            uuid: currentUUID, remoteURL: try NormalizedURL(url), collection: collection.fullName, channels: channels,
            filter: filter, filterParameters: filterParameters, documentIDs: documentIDs)
        let stored = try storedCheckpoints(in: collection)
        let currentPath = DatabaseLocation.path(of: database)

        for uuid in known {
            let id = expected.with(uuid: uuid).checkpointID
            guard let match = stored.first(where: { $0.id == id }) else { continue }
            if mode == .installed, uuid == currentUUID, let recorded = match.checkpoint.databasePath,
                recorded != currentPath
            {
                return CheckpointDiagnosis(
                    willResume: false, checkpointID: expected.checkpointID, storedCheckpointID: id, matchedUUID: uuid,
                    differences: [.uuidNotRegenerated(recordedPath: recorded, currentPath: currentPath)],
                    expected: expected, storedCheckpointCount: stored.count)
            }
            return CheckpointDiagnosis(
                willResume: true, checkpointID: expected.checkpointID, storedCheckpointID: id, matchedUUID: uuid,
                differences: [], expected: expected, storedCheckpointCount: stored.count)
        }

        var closest: (id: String, differences: [CheckpointDifference])?
        for entry in stored {
            guard let recorded = entry.checkpoint.inputs else { continue }
            let differences = CheckpointDoctor.differences(
                expected: expected, recorded: recorded, known: known, recordedPath: entry.checkpoint.databasePath,
                currentPath: currentPath, mode: mode)
            if closest == nil || differences.count < closest?.differences.count ?? .max {
                closest = (entry.id, differences)
            }
        }
        return CheckpointDiagnosis(
            willResume: false, checkpointID: expected.checkpointID, storedCheckpointID: closest?.id, matchedUUID: nil,
            differences: closest?.differences ?? [.noCheckpoint], expected: expected,
            storedCheckpointCount: stored.count)
    }

    /// The replicator's checkpoints among the collection's local documents.
    private func storedCheckpoints(in collection: Collection) throws -> [(
        id: String, checkpoint: ReplicationCheckpoint
    )] {
        try collection.localDocumentIDs().filter { $0.hasPrefix("cp-") }.compactMap { id in
            guard let body = try collection.localDocument(id: id),
                let checkpoint = try? ReplicationCheckpoint(json: body, origin: "local document \(id)")
            else { return nil }
            return (id, checkpoint)
        }
    }

    static func differences(
        expected: CheckpointInputs, recorded: CheckpointInputs, known: [String], recordedPath: String?,
        currentPath: String, mode: Mode
    ) -> [CheckpointDifference] {
        var found: [CheckpointDifference] = []
        let (want, have) = (expected.remoteURL, recorded.remoteURL)
        if want.scheme != have.scheme { found.append(.scheme(expected: want.scheme, recorded: have.scheme)) }
        if want.host != have.host { found.append(.host(expected: want.host, recorded: have.host)) }
        if want.port != have.port { found.append(.port(expected: want.port, recorded: have.port)) }
        if want.path != have.path { found.append(.path(expected: want.path, recorded: have.path)) }
        if expected.collection != recorded.collection {
            found.append(.collection(expected: expected.collection, recorded: recorded.collection))
        }
        if expected.channels != recorded.channels {
            found.append(.channels(expected: expected.channels, recorded: recorded.channels))
        }
        if expected.filter != recorded.filter {
            found.append(.filter(expected: expected.filter, recorded: recorded.filter))
        }
        if expected.filterParameters != recorded.filterParameters {
            found.append(.filterParameters(expected: expected.filterParameters, recorded: recorded.filterParameters))
        }
        if expected.documentIDs != recorded.documentIDs {
            found.append(.documentIDs(expected: expected.documentIDs, recorded: recorded.documentIDs))
        }
        if !known.contains(recorded.uuid) {
            found.append(.uuid(recorded: recorded.uuid, known: known))
        } else if mode == .installed, recorded.uuid == expected.uuid, let recordedPath, recordedPath != currentPath {
            found.append(.uuidNotRegenerated(recordedPath: recordedPath, currentPath: currentPath))
        }
        return found
    }
}

extension CheckpointDoctor {
    /// Opens the database at `path` (a `<name>.quire` folder or its `db.sqlite3`) and
    /// diagnoses the replication of its collection `collectionName` (`scope.collection`;
    /// the default collection when nil).
    package static func diagnose(
        databaseAt path: String, mode: Mode = .installed, collection collectionName: String? = nil, url: URL,
        channels: [String] = [], documentIDs: [String] = [], filter: String? = nil,
        filterParameters: [String: String] = [:]
    ) throws -> CheckpointDiagnosis {
        var file = path.hasSuffix("/") ? String(path.dropLast()) : path
        if !file.hasSuffix(".sqlite3") { file += "/db.sqlite3" }
        guard FileManager.default.fileExists(atPath: file) else {
            throw QuireError(.notFound, "no database at \(path) (expected \(file))")
        }
        let database = Database(path: file)
        defer { try? database.close() }
        let collection: Collection
        if let collectionName {
            let parts = collectionName.split(separator: ".", maxSplits: 1).map(String.init)
            let (scope, name) = parts.count == 2 ? (parts[0], parts[1]) : (Database.defaultScopeName, parts[0])
            guard let found = try database.collection(name: name, scope: scope) else {
                throw QuireError(.notFound, "the database at \(path) has no collection \(scope).\(name)")
            }
            collection = found
        } else {
            collection = try database.defaultCollection()
        }
        return try CheckpointDoctor(database: database, mode: mode).diagnose(
            collection: collection, url: url, channels: channels, documentIDs: documentIDs, filter: filter,
            filterParameters: filterParameters)
    }
}
