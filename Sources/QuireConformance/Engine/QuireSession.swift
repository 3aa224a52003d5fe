import Foundation
import Quire
import QuireFixtures

/// One case's databases on the Quire engine.
final class QuireSession: EngineSession {
    private let directory: URL
    private let clock: any QuireClock
    private let manualClock: ManualClock?
    private var currentName: String
    private var current: Database
    private var open: [String: Database] = [:]
    /// Collection objects as an app would hold them: a step on a collection uses the object
    /// from the last step that created or looked it up, so a deleted collection's object
    /// reports notOpen as in Couchbase Lite.
    private var held: [CollectionName: Collection] = [:]

    init(directory: URL, given: Given) throws {
        self.directory = directory
        switch given.clock {
        case .system:
            clock = SystemClock()
            manualClock = nil
        case .manual(let start):
            let manual = ManualClock(start: start)
            clock = manual
            manualClock = manual
        }
        currentName = given.database
        if let fixture = given.fixture {
            try QuireSession.engineCall {
                try QuireSession.install(fixture: fixture, as: given.database, in: directory)
            }
        }
        let configuration = DatabaseConfiguration(directory: directory.path, clock: clock)
        current = try QuireSession.engineCall { try Database(name: given.database, config: configuration) }
        open[given.database] = current
    }

    private var configuration: DatabaseConfiguration {
        DatabaseConfiguration(directory: directory.path, clock: clock)
    }

    // MARK: EngineSession

    func perform(_ step: Step, in context: StepContext) throws -> SpecValue? {
        try QuireSession.engineCall { try performStep(step, in: context) }
    }

    func inBatch(_ body: () throws -> Void) throws {
        // The body's own errors (a failed expectation, a deliberate abort) must come out
        // unchanged, so only Quire's errors are translated.
        try QuireSession.engineCall { try current.inBatch(using: body) }
    }

    func documentState(of document: DocumentReference) throws -> DocumentState {
        try QuireSession.engineCall {
            let collection = try collection(document.collection)
            guard let info = try collection.revisionInfo(id: document.id) else { return .absent }
            if info.isDeleted { return .deleted(revisionID: info.revisionID) }
            guard let snapshot = try snapshot(collection, id: document.id) else { return .absent }
            return .live(snapshot)
        }
    }

    func isBlobStored(digest: String) throws -> Bool {
        try QuireSession.engineCall {
            try current.getBlob(properties: ["@type": "blob", "digest": digest]) != nil
        }
    }

    func runBaseline(named name: String, iterations: Int, in context: StepContext) throws {
        switch name {
        case "rawSQLiteInsert":
            try QuireSession.engineCall { try RawSQLiteBaseline.insert(iterations: iterations, in: context.directory) }
        case "nothing":
            return
        default:
            throw EngineError.unsupported("the baseline '\(name)' (known: rawSQLiteInsert, nothing)")
        }
    }

    func close() throws {
        for database in open.values { try? database.close() }
        open.removeAll()
    }

    // MARK: Steps

    private func performStep(_ step: Step, in context: StepContext) throws -> SpecValue? {
        switch step {
        case .createCollection(let name):
            let collection = try current.createCollection(name: name.name, scope: name.scope)
            held[name] = collection
            return info(collection)
        case .deleteCollection(let name):
            try current.deleteCollection(name: name.name, scope: name.scope)
            return nil
        case .collection(let name):
            let collection = try current.collection(name: name.name, scope: name.scope)
            held[name] = collection
            return collection.map(info) ?? .null
        case .collections(let scope):
            return .array(try current.collections(scope: scope).map { .string($0.name) })
        case .scope(let name):
            return try current.scope(name: name).map { .object(["name": .string($0.name)]) } ?? .null
        case .scopes:
            return .array(try current.scopes().map(\.name).sorted().map(SpecValue.string))
        case .save(let save):
            return try self.save(save)
        case .get(let reference):
            return try snapshot(try collection(reference.collection), id: reference.id)?.specValue ?? .null
        case .delete(let delete):
            try self.delete(delete)
            return nil
        case .purge(let reference):
            try collection(reference.collection).purge(id: reference.id)
            return nil
        case .count(let name):
            let collection = try collection(name)
            return .int(Int(collection.count))
        case .setExpiration(let reference, let expiration):
            let date: Date?
            switch expiration {
            case .at(let when)?: date = when
            case .after(let seconds)?: date = clock.now.addingTimeInterval(seconds)
            case nil: date = nil
            }
            try collection(reference.collection).setDocumentExpiration(id: reference.id, expiration: date)
            return nil
        case .getExpiration(let reference):
            let date = try collection(reference.collection).getDocumentExpiration(id: reference.id)
            return date.map { .int(Int(($0.timeIntervalSince1970 * 1000).rounded(.down))) } ?? .null
        case .advanceClock(let seconds):
            guard let manualClock else {
                throw EngineError(
                    domain: EngineError.conformanceDomain, code: "invalidSpec",
                    message: "advanceClock needs a manual clock: set `given: {clock: {manual: ...}}`")
            }
            manualClock.advance(by: seconds)
            return nil
        case .query(let query):
            return try QuireQueries.run(query, on: current)
        case .createIndex(let index):
            try QuireQueries.createIndex(index, in: try collection(index.collection))
            return nil
        case .deleteIndex(let name, let collectionName):
            try QuireQueries.deleteIndex(name, in: try collection(collectionName))
            return nil
        case .indexes(let name):
            return .array(try QuireQueries.indexes(in: try collection(name)).sorted().map(SpecValue.string))
        case .open(let name):
            if let database = open[name], !database.isClosedForSpecs {
                current = database
            } else {
                current = try Database(name: name, config: configuration)
                open[name] = current
            }
            currentName = name
            return nil
        case .close:
            try current.close()
            return nil
        case .reopen:
            try? current.close()
            current = try Database(name: currentName, config: configuration)
            open[currentName] = current
            return nil
        case .copyDatabase(let copy):
            let source: String
            switch copy.source {
            case .database(let name): source = directory.appendingPathComponent("\(name).quire").path
            case .path(let url): source = url.path
            }
            try Database.copy(fromPath: source, toDatabase: copy.destination, withConfig: configuration)
            return nil
        case .databaseExists(let name):
            return .bool(Database.exists(withName: name, inDirectory: directory.path))
        case .saveBlob(let content, let contentType):
            let blob = Blob(contentType: contentType, data: Data(content.utf8))
            try current.saveBlob(blob: blob)
            return SpecValue(json: try JSONReader.parse(JSONWriter.bytes(JSONValue(any: blob.properties) ?? .null)))
        case .blobContent(let properties):
            guard let blob = try current.getBlob(properties: properties.mapValues { $0.jsonValue.anyValue }) else {
                return .null
            }
            return .string(String(decoding: try blob.readContent(), as: UTF8.self))
        case .maintenance(let type):
            let kinds: [String: MaintenanceType] = [
                "compact": .compact, "reindex": .reindex, "integrityCheck": .integrityCheck,
                "optimize": .optimize, "fullOptimize": .fullOptimize,
            ]
            guard let kind = kinds[type] else {
                throw QuireError(.invalidParameter, "unknown maintenance type '\(type)'")
            }
            try current.performMaintenance(type: kind)
            return nil
        case .buildFixture(let recipe):
            let built = try FixtureBuilder(recipe: try FixtureRecipe.load(from: recipe))
                .build(into: directory.appendingPathComponent("fixtures"))
            var counts: [String: SpecValue] = [:]
            for collection in built.manifest.collections { counts[collection.name] = .int(collection.documentCount) }
            return .object([
                "archive": .string(built.archiveURL.path), "name": .string(built.manifest.name), "collections": .object(counts),
            ])
        case .verifyFixture(let archive):
            let report = FixtureVerifier(archiveURL: archive).verify()
            return .object([
                "valid": .bool(report.isValid),
                "failures": .array(report.failures.map { .string("\($0.subject): \($0.problem ?? "")") }),
            ])
        case .installFixture(let archive, let name, let ifAbsent):
            let outcome = try FixtureInstaller.install(
                archive: archive, name: name, config: configuration, ifAbsent: ifAbsent, temporaryDirectory: directory)
            return .object(["installed": .bool(outcome == .installed)])
        case .deleteDatabase(let name):
            if let database = open[name], !database.isClosedForSpecs {
                try database.delete()
                open[name] = nil
            } else {
                try Database.delete(withName: name, inDirectory: directory.path)
            }
            return nil
        }
    }

    private func save(_ save: Step.Save) throws -> SpecValue {
        let collection = try collection(save.collection)
        let body: [String: Any]
        switch save.content {
        case .properties(let properties):
            body = properties.mapValues { $0.jsonValue.anyValue }
        case .json(let text):
            body = try MutableDocument(json: text).toDictionary()
        }
        let document: MutableDocument
        if let base = save.baseRevisionID, let id = save.id,
            let stored = try collection.document(id: id), stored.revisionID == base
        {
            document = stored.toMutable()
            document.setData(body)
        } else if let base = save.baseRevisionID, let id = save.id, save.concurrency == .failOnConflict {
            throw EngineError(
                domain: QuireError.Domain.quire.rawValue, code: QuireError.Code.conflict.name,
                message: "document '\(id)' in \(collection.fullName) changed since revision \(base)")
        } else {
            document = MutableDocument(id: save.id, data: body)
        }
        let control: ConcurrencyControl = save.concurrency == .failOnConflict ? .failOnConflict : .lastWriteWins
        guard try collection.save(document: document, concurrencyControl: control) else {
            throw EngineError(
                domain: QuireError.Domain.quire.rawValue, code: QuireError.Code.conflict.name,
                message: "document '\(document.id)' in \(collection.fullName) was changed by another save")
        }
        return try snapshot(collection, id: document.id)?.specValue ?? .null
    }

    private func delete(_ delete: Step.Delete) throws {
        let reference = delete.document
        let collection = try collection(reference.collection)
        guard let stored = try collection.document(id: reference.id) else {
            throw QuireError(.notFound, "document '\(reference.id)' not found in \(collection.fullName)")
        }
        if delete.concurrency == .failOnConflict, let base = delete.baseRevisionID, base != stored.revisionID {
            throw EngineError(
                domain: QuireError.Domain.quire.rawValue, code: QuireError.Code.conflict.name,
                message: "document '\(reference.id)' in \(collection.fullName) changed since revision \(base)")
        }
        try collection.delete(document: stored)
    }

    // MARK: Helpers

    private func collection(_ name: CollectionName) throws -> Collection {
        if let held = held[name], held.database === current { return held }
        guard let collection = try current.collection(name: name.name, scope: name.scope) else {
            throw QuireError(.notFound, "collection \(name.fullName) does not exist")
        }
        held[name] = collection
        return collection
    }

    private func info(_ collection: Collection) -> SpecValue {
        .object([
            "name": .string(collection.name), "scope": .string(collection.scope.name),
            "fullName": .string(collection.fullName),
        ])
    }

    private func snapshot(_ collection: Collection, id: String) throws -> DocumentSnapshot? {
        guard let document = try collection.document(id: id), let revisionID = document.revisionID else { return nil }
        guard case .object(let members) = try JSONReader.parse(document.toJSON()) else { return nil }
        let expiration = try collection.getDocumentExpiration(id: id)
        return DocumentSnapshot(
            DocumentReference(id, in: CollectionName(collection.name, scope: collection.scope.name)),
            revisionID: revisionID, sequence: Int(document.sequence),
            properties: members.mapValues(SpecValue.init(json:)),
            expiration: expiration.map { Int(($0.timeIntervalSince1970 * 1000).rounded(.down)) })
    }

    private static func install(fixture: URL, as name: String, in directory: URL) throws {
        let path = fixture.path
        if FileManager.default.fileExists(atPath: path + "/db.sqlite3") {
            try Database.copy(
                fromPath: path, toDatabase: name, withConfig: DatabaseConfiguration(directory: directory.path))
            return
        }
        throw EngineError(
            domain: EngineError.conformanceDomain, code: "unsupported",
            message: "fixture \(path) is not a database folder (a <name>.quire folder with db.sqlite3)")
    }

    /// Runs Quire calls, turning `QuireError` into the spec's terms.
    static func engineCall<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as QuireError {
            throw EngineError(domain: error.domain.rawValue, code: error.code.name, message: error.message)
        }
    }
}

extension Database {
    /// Whether this object was closed (its operations throw notOpen).
    fileprivate var isClosedForSpecs: Bool {
        (try? defaultScope()) == nil
    }
}
