import Foundation
import Quire
import QuireFixtureBuilder
import QuireFixtures
import QuireListener
import QuireSync

/// One case's databases on the Quire engine.
final class QuireSession: EngineSession {
    private let directory: URL
    private let clock: any QuireClock
    private let manualClock: ManualClock?
    private var currentName: String
    private(set) var current: Database
    private var open: [String: Database] = [:]
    /// More `Database` objects on the case's files, by the alias `open {name, as}` gave them.
    private var instances: [String: Database] = [:]
    /// Collection objects as an app would hold them, per `Database` object: a step on a
    /// collection uses the object from the last step that created or looked it up through the
    /// current database object, so a deleted collection's object reports notOpen as in
    /// Couchbase Lite.
    private var held: [HeldKey: Collection] = [:]
    /// Scope objects as an app would hold them, per `Database` object: from the last `scope`
    /// step, or the scope of the last collection created or looked up.
    private var heldScopes: [HeldKey: Scope] = [:]
    /// Document objects as an app holds them, by the name a step's `as:` gave them.
    var objects: [String: Document] = [:]
    /// Dictionaries, arrays and blobs held on their own (`newDictionary`, `valueAt` with `as:`
    /// ...), by the name a step's `as:` gave them.
    var heldValues: [String: AnyObject] = [:]
    /// Listeners started by `serve`, stopped by ``close()``.
    private var listeners: [URLEndpointListener] = []
    /// The performance baseline of this session, with the documents its preparation stored.
    private var baseline: (store: RawSQLiteBaseline, prepareIterations: Int)?
    /// The `bulkDocsPush` baseline of this session, with its listener.
    private var bulkDocs: BulkDocsBaseline?
    /// Change listeners added by `addChangeListener`.
    private let changeRecorder = ChangeRecorder()
    /// Replicators started by `startReplicator`, stopped by ``close()``.
    let replicators = QuireReplicators()

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

    func prepareBaseline(named name: String, iterations: Int, prepareIterations: Int, in context: StepContext) throws {
        try QuireSession.engineCall {
            if name == BulkDocsBaseline.name {
                let fresh = try BulkDocsBaseline(directory: context.directory)
                try fresh.prepare(count: prepareIterations)
                bulkDocs = fresh
                return
            }
            guard RawSQLiteBaseline.names.contains(name) else {
                throw EngineError.unsupported(
                    "the baseline '\(name)' (known: \((RawSQLiteBaseline.names + [BulkDocsBaseline.name]).joined(separator: ", ")))"
                )
            }
            let fresh = try RawSQLiteBaseline(
                directory: context.directory, specDirectory: context.specDirectory, seed: context.seed)
            try fresh.prepare(name, prepareIterations: prepareIterations, threads: context.threads)
            baseline = (fresh, prepareIterations)
        }
    }

    func runBaseline(named name: String, iterations: Int, in context: StepContext) throws {
        try QuireSession.engineCall {
            if name == BulkDocsBaseline.name {
                if bulkDocs == nil {
                    try prepareBaseline(named: name, iterations: iterations, prepareIterations: 1, in: context)
                }
                try bulkDocs?.run(iterations: iterations)
                return
            }
            if baseline == nil {
                try prepareBaseline(named: name, iterations: iterations, prepareIterations: 1, in: context)
            }
            guard let (store, prepared) = baseline else { return }
            try store.run(name, iterations: iterations, prepareIterations: prepared, threads: context.threads)
        }
    }

    func close() throws {
        baseline = nil
        bulkDocs = nil
        changeRecorder.removeAll()
        replicators.stopAll()
        for listener in listeners { QuireSession.waitFor { await listener.stop() } }
        listeners.removeAll()
        for database in instances.values { try? database.close() }
        instances.removeAll()
        for database in open.values { try? database.close() }
        open.removeAll()
    }

    // MARK: Steps

    private func performStep(_ step: Step, in context: StepContext) throws -> SpecValue? {
        switch step {
        case .createCollection(let name):
            let collection = try current.createCollection(name: name.name, scope: name.scope)
            hold(collection, as: name)
            return info(collection)
        case .deleteCollection(let name):
            try current.deleteCollection(name: name.name, scope: name.scope)
            return nil
        case .collection(let name):
            // The default collection is asked for as an app asks for it.
            let collection =
                name == .default
                ? try current.defaultCollection() : try current.collection(name: name.name, scope: name.scope)
            hold(collection, as: name)
            return collection.map(info) ?? .null
        case .scopeCollection(let name, let scopeName):
            let collection = try heldScope(scopeName).collection(name: name)
            hold(collection, as: CollectionName(name, scope: scopeName))
            return collection.map(info) ?? .null
        case .scopeCollections(let scopeName):
            return .array(try heldScope(scopeName).collections().map(\.name).sorted().map(SpecValue.string))
        case .collections(let scope):
            return .array(try current.collections(scope: scope).map { .string($0.name) })
        case .scope(let name):
            let scope = name == Database.defaultScopeName ? try current.defaultScope() : try current.scope(name: name)
            heldScopes[HeldKey(current, name)] = scope
            return scope.map { .object(["name": .string($0.name)]) } ?? .null
        case .scopes:
            return .array(try current.scopes().map(\.name).sorted().map(SpecValue.string))
        case .save(let save):
            return try self.save(save, returning: !context.discardsResult, holdingAs: context.objectName)
        case .get(let reference):
            let collection = try collection(reference.collection)
            if let name = context.objectName, let document = try collection.document(id: reference.id) {
                objects[name] = document
            }
            return try snapshot(collection, id: reference.id)?.specValue ?? .null
        case .saveObject(let save):
            return try saveObject(save)
        case .deleteObject(let name, let collectionName, let concurrency):
            let document = try object(name)
            let owner = try collectionName.map { try collection($0) } ?? document.collection ?? collection(.default)
            let control: ConcurrencyControl = concurrency == .failOnConflict ? .failOnConflict : .lastWriteWins
            guard try owner.delete(document: document, concurrencyControl: control) else {
                throw QuireError(
                    .conflict, "document '\(document.id)' in \(owner.fullName) was changed since '\(name)' was read")
            }
            return try QuireSession.state(of: document)
        case .toMutable(let name):
            if objects[name] == nil, let value = heldValues[name] {
                return try mutableCopy(of: value, name: name, holdingAs: context.objectName)
            }
            let copy = try object(name).toMutable()
            if let held = context.objectName { objects[held] = copy }
            return try QuireSession.state(of: copy)
        case .object(let name):
            if objects[name] == nil, let value = heldValues[name] { return try heldState(of: value) }
            return try QuireSession.state(of: try object(name))
        case .purgeObject(let name, let collectionName, let databaseName):
            let document = try object(name)
            let database = try databaseName.map { try self.database(named: $0) } ?? current
            let owner: Collection
            if let collectionName {
                owner = try collection(collectionName, in: database)
            } else if databaseName != nil {
                owner = try database.defaultCollection()
            } else {
                owner = try document.collection ?? collection(.default)
            }
            try owner.purge(document: document)
            return nil
        case .openConfigured(let name, let fullSync):
            var configuration = self.configuration
            configuration.fullSync = fullSync
            if let database = open[name] { try? database.close() }
            current = try Database(name: name, config: configuration)
            open[name] = current
            currentName = name
            return nil
        case .databaseInfo:
            let synchronous = try current.read { try $0.scalarInt("PRAGMA synchronous") }
            let names: [Int64: String] = [0: "off", 1: "normal", 2: "full", 3: "extra"]
            return .object([
                "name": .string(current.name), "path": .string(current.path),
                "fullSync": .bool(current.config.fullSync),
                "synchronous": synchronous.flatMap { names[$0] }.map(SpecValue.string) ?? .null,
            ])
        case .databaseOf(let owner):
            let database: Database
            switch owner {
            case .collection(let name): database = try collection(name).database
            case .scope(let name): database = try heldScope(name).database
            }
            return .object(["name": .string(database.name), "isCurrent": .bool(database === current)])
        case .blobCount:
            return .int(try QuireBlobs.count(in: current))
        case .index(let name, let collectionName):
            return try collection(collectionName).index(withName: name).map { .object(["name": .string($0.name)]) }
                ?? .null
        case .handle(let operation):
            return try handle(operation)
        case .deleteDatabaseByName(let name):
            try Database.delete(withName: name, inDirectory: directory.path)
            return nil
        case .replicator(let operation):
            return try replicator(operation)
        case .container(let operation):
            return try container(operation, holdingAs: context.objectName)
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
            if context.discardsResult {
                try QuireQueries.drain(query, on: current)
                return nil
            }
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
        case .openInstance(let name, let alias):
            if let database = instances[alias], !database.isClosedForSpecs, database.name == name {
                current = database
            } else {
                current = try Database(name: name, config: configuration)
                instances[alias] = current
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
            if copy.asFiles {
                try FileManager.default.copyItem(
                    atPath: source, toPath: directory.appendingPathComponent("\(copy.destination).quire").path)
            } else {
                try Database.copy(fromPath: source, toDatabase: copy.destination, withConfig: configuration)
            }
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
        case .getValue(let read):
            return try QuireTypedReads.value(read, in: try collection(read.document.collection))
        case .explain(let query):
            return try QuireQueries.explain(query, on: current)
        case .addChangeListener(let listener):
            if let other = listener.sameQueryAs {
                try changeRecorder.add(listener, query: try changeRecorder.query(of: other))
            } else if let sql = listener.query {
                let query = try current.createQuery(sql)
                if !listener.parameters.isEmpty { query.parameters = QuireQueries.parameters(listener.parameters) }
                try changeRecorder.add(listener, query: query)
            } else {
                try changeRecorder.add(listener, to: try collection(listener.collection))
            }
            return nil
        case .waitForChange(let name):
            return try changeRecorder.waitForChange(name)
        case .setQueryParameters(let name, let parameters):
            try changeRecorder.query(of: name).parameters = QuireQueries.parameters(parameters)
            return nil
        case .changes(let name):
            return try changeRecorder.changes(of: name)
        case .removeChangeListener(let name):
            try changeRecorder.remove(name)
            return nil
        case .generateBlob(let size, let seed, let contentType):
            return try QuireBlobs.generate(size: size, seed: seed, contentType: contentType, in: current)
        case .readBlob(let properties):
            return try QuireBlobs.read(properties, in: current)
        case .damageBlob(let digest):
            try QuireBlobs.damage(digest: digest, in: current)
            return nil
        case .buildFixture(let build):
            return try buildFixture(build)
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
        case .serve(let name, let readOnly, let keepsConflicts):
            return try serve(name, readOnly: readOnly, keepsConflicts: keepsConflicts)
        case .request(let method, let url, let body):
            return try QuireHTTPRequest.send(method: method, url: try self.url(url), body: body)
        case .replicate(let replication):
            let outcome = try replicate(replication)
            // A measured replication must replicate: one that failed would only look fast.
            if context.discardsResult, case .object(let members) = outcome,
                case .string(let message)? = members["error"]
            {
                throw QuireError(.unexpectedError, "the replication failed: \(message)")
            }
            return outcome
        case .checkpointDoctor(let query):
            return try checkpointDoctor(query)
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

    private func handle(_ operation: Step.HandleOperation) throws -> SpecValue? {
        switch operation {
        case .canOpen: return .bool(current.canOpen)
        case .isOpened: return .bool(current.isOpened)
        case .blockade: current.blockade()
        case .unblockade: current.unblockade()
        case .closeHandles:
            var openedInOnClosed = true
            let database = current
            try current.close(onClosed: { openedInOnClosed = database.isOpened })
            return .object(["openedInOnClosed": .bool(openedInOnClosed)])
        case .purgeFreeHandles: current.purgeFreeHandles()
        case .tag(let value):
            if let value { current.tag = value }
            return current.tag.map(SpecValue.int) ?? .null
        }
        return nil
    }

    /// The document object held under `name`; the runner refuses a name no step gave.
    func object(_ name: String) throws -> Document {
        guard let document = objects[name] else {
            let known = objects.keys.sorted()
            throw EngineError.refusal(
                "noSuchObject",
                "no document object is held as '\(name)' (a get, save or toMutable step with `as: \(name)` holds one)"
                    + (known.isEmpty ? "" : "; held: \(known.joined(separator: ", "))"))
        }
        return document
    }

    /// A document object's own state: what the app would read from the object it holds.
    static func state(of document: Document) throws -> SpecValue {
        guard case .object(let members) = try JSONReader.parse(document.toJSON()) else {
            throw QuireError(.unexpectedError, "document '\(document.id)' did not serialise as a JSON object")
        }
        var value = members.mapValues(SpecValue.init(json:))
        value[DocumentSnapshot.metaKey] = .object([
            "id": .string(document.id),
            "collection": document.collection.map { SpecValue.string($0.fullName) } ?? .null,
            "revisionID": document.revisionID.map(SpecValue.string) ?? .null,
            "sequence": .int(Int(document.sequence)),
            "isDeleted": .bool(document.isDeleted),
            "mutable": .bool(document is MutableDocument),
        ])
        return .object(value)
    }

    private func saveObject(_ save: Step.ObjectSave) throws -> SpecValue {
        let held = try object(save.name)
        guard let document = held as? MutableDocument else {
            throw EngineError.refusal(
                "notMutable",
                "'\(save.name)' is an immutable Document, which cannot be saved; make a copy with toMutable")
        }
        for (key, value) in save.merge { document.setValue(value.jsonValue.anyValue, forKey: key) }
        for key in save.unset { document.removeValue(forKey: key) }
        let database = try save.database.map { try self.database(named: $0) } ?? current
        let target: Collection
        if let name = save.collection {
            target = try collection(name, in: database)
        } else if save.database != nil {
            target = try database.defaultCollection()
        } else {
            target = try document.collection ?? collection(.default)
        }
        if let choice = save.conflictHandler {
            return try QuireConflictSave.save(document, in: target, choice: choice, state: QuireSession.state(of:))
        }
        let control: ConcurrencyControl = save.concurrency == .failOnConflict ? .failOnConflict : .lastWriteWins
        guard try target.save(document: document, concurrencyControl: control) else {
            throw QuireError(
                .conflict, "document '\(document.id)' in \(target.fullName) was changed since '\(save.name)' was read")
        }
        return try QuireSession.state(of: document)
    }

    private func save(_ save: Step.Save, returning: Bool = true, holdingAs name: String? = nil) throws -> SpecValue? {
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
            // The runner found `from` stale and never asked the store (`object:` asks it).
            throw EngineError.refusal(
                "conflict", "document '\(id)' in \(collection.fullName) changed since revision \(base) of 'from'")
        } else if case .json(let text) = save.content {
            // Made from the text itself, as an app does: a dictionary of it would merge keys
            // that differ only in Unicode normalisation, which the document keeps apart.
            document = try MutableDocument(id: save.id, json: text)
        } else {
            document = MutableDocument(id: save.id, data: body)
        }
        let control: ConcurrencyControl = save.concurrency == .failOnConflict ? .failOnConflict : .lastWriteWins
        guard try collection.save(document: document, concurrencyControl: control) else {
            throw EngineError(
                domain: QuireError.Domain.quire.rawValue, code: QuireError.Code.conflict.name,
                message: "document '\(document.id)' in \(collection.fullName) was changed by another save")
        }
        if let name { objects[name] = document }
        guard returning else { return nil }
        return try snapshot(collection, id: document.id)?.specValue ?? .null
    }

    private func delete(_ delete: Step.Delete) throws {
        let reference = delete.document
        let collection = try collection(reference.collection)
        // A tombstone is deleted as the Document object an app holds after deleting it: the
        // stored tombstone revision.
        let current = try collection.document(id: reference.id)
        let tombstone =
            try current == nil
            ? collection.revisionInfo(id: reference.id).flatMap { info in
                info.isDeleted ? try collection.document(id: reference.id, revisionID: info.revisionID) : nil
            } : nil
        guard let stored = current ?? tombstone else {
            // No document object to give the store: the runner refuses, the store is never asked.
            throw EngineError.refusal(
                "notFound",
                "document '\(reference.id)' not found in \(collection.fullName), so there is no object to delete")
        }
        if delete.concurrency == .failOnConflict, let base = delete.baseRevisionID, base != stored.revisionID {
            throw EngineError.refusal(
                "conflict",
                "document '\(reference.id)' in \(collection.fullName) changed since revision \(base) of 'from'")
        }
        try collection.delete(document: stored)
    }

    // MARK: Fixtures and replication

    private func buildFixture(_ build: Step.BuildFixture) throws -> SpecValue {
        var recipe: FixtureRecipe
        switch build.recipe {
        case .file(let url): recipe = try FixtureRecipe.load(from: url)
        case .text(let text, let baseFolder):
            recipe = try FixtureRecipe.parse(Data(text.utf8), fileName: "recipeText", baseFolder: baseFolder)
        }
        if let remoteURL = build.remoteURL {
            guard case .remote = recipe.source else {
                throw QuireError(.invalidParameter, "buildFixture: 'remoteURL' needs a recipe with a remote source")
            }
            recipe = recipe.withRemoteURL(try url(remoteURL))
        }
        let built = try FixtureBuilder(recipe: recipe).build(into: directory.appendingPathComponent("fixtures"))
        var counts: [String: SpecValue] = [:]
        for collection in built.manifest.collections { counts[collection.name] = .int(collection.documentCount) }
        let checkpoints: [SpecValue] = (built.manifest.checkpoints ?? []).map { checkpoint in
            .object([
                "collection": .string(checkpoint.collection), "checkpointID": .string(checkpoint.checkpointID),
                "remoteURL": .string(checkpoint.remoteURL),
            ])
        }
        return .object([
            "archive": .string(built.archiveURL.path), "name": .string(built.manifest.name),
            "collections": .object(counts),
            "checkpoints": .array(checkpoints),
        ])
    }

    private func serve(_ name: String, readOnly: Bool, keepsConflicts: Bool) throws -> SpecValue {
        let database = try database(named: name)
        var collections: [Collection] = [try database.defaultCollection()]
        for scope in try database.scopes() {
            for collection in try scope.collections() where !collections.contains(collection) {
                collections.append(collection)
            }
        }
        var config = URLEndpointListenerConfiguration(
            collections: collections, port: 0, networkInterface: "127.0.0.1", readOnly: readOnly)
        config.conflicts = keepsConflicts ? .keep : .refuse
        let listener = URLEndpointListener(config: config)
        try QuireSession.blocking { try await listener.start() }
        listeners.append(listener)
        guard let port = listener.port else {
            throw QuireError(.unexpectedError, "the listener for '\(name)' started without a port")
        }
        let path = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name
        return .object(["url": .string("http://127.0.0.1:\(port)/\(path)")])
    }

    private func replicate(_ replication: Step.Replication) throws -> SpecValue {
        let database = try replication.database.map { try self.database(named: $0) } ?? current
        var config = ReplicatorConfiguration(target: URLEndpoint(url: try url(replication.url)))
        switch replication.type {
        case .push: config.replicatorType = .push
        case .pull: config.replicatorType = .pull
        case .pushAndPull: config.replicatorType = .pushAndPull
        }
        config.maxAttempts = 3
        config.maxAttemptWaitTime = 2
        let options = CollectionConfiguration(channels: replication.channels, documentIDs: replication.documentIDs)
        var collections: [Collection] = []
        for name in replication.collections {
            let collection = try collection(name, in: database)
            collections.append(collection)
            config.addCollection(collection, config: options)
        }
        let replicator = Replicator(config: config)
        // The replicator ends a failing run by itself within seconds (three attempts, waits of
        // at most 2 s, request timeouts); this guard is only for one that never stops. It is
        // generous because the replicator runs on Swift concurrency's shared threads, which
        // other blocking work in the same process (a parallel test run under a sanitizer, with
        // one such thread per core) can hold for minutes without anything being wrong.
        let outcome = try BlockingReplication.run(replicator, reset: replication.reset, timeout: 600)
        var starts: [String: SpecValue] = [:]
        var since: [String: SpecValue] = [:]
        var resumed = true
        for collection in collections {
            let report = replicator.checkpointReport(for: collection)
            resumed = resumed && report?.isResumed == true
            starts[collection.fullName] = report.map { .string(QuireSession.name(of: $0.outcome)) } ?? .null
            since[collection.fullName] = report.map { .string($0.remoteSequence) } ?? .null
        }
        // The progress total counts every change read, including documents one side already
        // had, which `pushed` and `pulled` leave out: it tells a full re-read from a resume.
        let examined = replicator.status.progress.total
        return .object([
            "pushed": .int(outcome.pushed), "pulled": .int(outcome.pulled), "resumed": .bool(resumed),
            "checkpoints": .object(starts), "since": .object(since), "examined": .int(Int(clamping: examined)),
            "error": outcome.error.map { .string($0.message) } ?? .null,
            "errorCode": outcome.error.map { .string($0.code.name) } ?? .null,
        ])
    }

    private func checkpointDoctor(_ query: Step.DoctorQuery) throws -> SpecValue {
        let database = try query.database.map { try self.database(named: $0) } ?? current
        let diagnosis = try CheckpointDoctor(database: database).diagnose(
            collection: try collection(query.collection, in: database), url: try url(query.url),
            channels: query.channels,
            documentIDs: query.documentIDs)
        return .object([
            "resumes": .bool(diagnosis.willResume),
            "differences": .array(diagnosis.differences.map { .string(QuireSession.name(of: $0)) }),
            "storedCheckpoints": .int(diagnosis.storedCheckpointCount),
        ])
    }

    /// A checkpoint difference's name in spec results: the input that differs.
    private static func name(of difference: CheckpointDifference) -> String {
        switch difference {
        case .noCheckpoint: return "noCheckpoint"
        case .scheme: return "scheme"
        case .host: return "host"
        case .port: return "port"
        case .path: return "path"
        case .collection: return "collection"
        case .channels: return "channels"
        case .filter: return "filter"
        case .filterParameters: return "filterParameters"
        case .documentIDs: return "documentIDs"
        case .uuid: return "uuid"
        case .uuidNotRegenerated: return "uuidNotRegenerated"
        }
    }

    /// Why a replication started where it did, in spec results.
    private static func name(of outcome: CheckpointReport.Outcome) -> String {
        switch outcome {
        case .resumed: return "resumed"
        case .resumedFromCommonSession: return "resumedFromCommonSession"
        case .reset: return "reset"
        case .noLocalCheckpoint: return "noLocalCheckpoint"
        case .noRemoteCheckpoint: return "noRemoteCheckpoint"
        case .noCommonSession: return "noCommonSession"
        case .uuidNotRegenerated: return "uuidNotRegenerated"
        }
    }

    func url(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw QuireError(.invalidParameter, "'\(text)' is not a URL such as http://127.0.0.1:4984/db")
        }
        return url
    }

    /// The named database of the case directory, opened if needed; the current one is unchanged.
    func database(named name: String) throws -> Database {
        if name == currentName, !current.isClosedForSpecs { return current }
        if let database = open[name], !database.isClosedForSpecs { return database }
        let database = try Database(name: name, config: configuration)
        open[name] = database
        return database
    }

    func collection(_ name: CollectionName, in database: Database) throws -> Collection {
        if database === current { return try collection(name) }
        guard let collection = try database.collection(name: name.name, scope: name.scope) else {
            throw QuireError(.notFound, "collection \(name.fullName) does not exist in '\(database.name)'")
        }
        return collection
    }

    /// Runs async work (listener start and stop) to its end from the session's thread, which
    /// is a runner thread, never one of Swift concurrency's.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// Runs async work that cannot fail to its end from a runner thread, as ``blocking(_:)``.
    static func waitFor(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }

    // MARK: Helpers

    func collection(_ name: CollectionName) throws -> Collection {
        if let held = held[HeldKey(current, name.fullName)] { return held }
        guard let collection = try current.collection(name: name.name, scope: name.scope) else {
            throw QuireError(.notFound, "collection \(name.fullName) does not exist")
        }
        hold(collection, as: name)
        return collection
    }

    /// Holds `collection` (and its scope) as the current database object's `name`; nil lets go.
    private func hold(_ collection: Collection?, as name: CollectionName) {
        held[HeldKey(current, name.fullName)] = collection
        if let collection { heldScopes[HeldKey(current, collection.scope.name)] = collection.scope }
    }

    /// The scope object held as `name` through the current database object, or else looked up.
    private func heldScope(_ name: String) throws -> Scope {
        if let scope = heldScopes[HeldKey(current, name)] { return scope }
        let scope = name == Database.defaultScopeName ? try current.defaultScope() : try current.scope(name: name)
        guard let scope else {
            throw QuireError(.notFound, "scope \(name) does not exist, and no step held a Scope object of that name")
        }
        heldScopes[HeldKey(current, name)] = scope
        return scope
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

    /// Puts `given.fixture` in place as database `name`: a `<name>.quire` database folder is
    /// copied (`Database.copy`), a `.quire.zip` archive installed (`FixtureInstaller`), and a
    /// dataset folder (`index.json` beside its JSON Lines files) first built into an archive
    /// with every collection, then installed. Scratch files stay inside `directory`.
    static func install(fixture: URL, as name: String, in directory: URL) throws {
        let manager = FileManager.default
        let path = fixture.path
        let config = DatabaseConfiguration(directory: directory.path)
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw QuireError(.notFound, "fixture \(path) does not exist")
        }
        if isFolder.boolValue, manager.fileExists(atPath: path + "/db.sqlite3") {
            try Database.copy(fromPath: path, toDatabase: name, withConfig: config)
            return
        }
        let scratch = directory.appendingPathComponent(".given-fixture", isDirectory: true)
        try? manager.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: scratch) }
        if !isFolder.boolValue, path.hasSuffix(".zip") {
            try FixtureInstaller.install(archive: fixture, name: name, config: config, temporaryDirectory: scratch)
            return
        }
        if isFolder.boolValue, manager.fileExists(atPath: path + "/" + DatasetIndex.fileName) {
            let recipeName = FixtureRecipe.isValidName(name) ? name : "fixture"
            let quotedPath = String(decoding: try JSONEncoder().encode(path), as: UTF8.self)
            let recipe = try FixtureRecipe.parse(
                Data("name: \(recipeName)\nsource:\n  dataset: \(quotedPath)\n".utf8), fileName: "given.fixture",
                baseFolder: fixture.deletingLastPathComponent())
            let built = try FixtureBuilder(recipe: recipe).build(into: scratch.appendingPathComponent("built"))
            try FixtureInstaller.install(
                archive: built.archiveURL, name: name, config: config, temporaryDirectory: scratch)
            return
        }
        throw EngineError(
            domain: EngineError.conformanceDomain, code: "unsupported",
            message: "fixture \(path) is none of a database folder (<name>.quire with db.sqlite3), "
                + "a fixture archive (.quire.zip) or a dataset folder (with \(DatasetIndex.fileName))")
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

/// An object held through one `Database` object: objects of one name held through two
/// objects on one file are different objects, as in Couchbase Lite. The held object keeps its
/// database alive, so the identifier is not reused while the key is in use.
private struct HeldKey: Hashable {
    let database: ObjectIdentifier
    let name: String

    init(_ database: Database, _ name: String) {
        self.database = ObjectIdentifier(database)
        self.name = name
    }
}

extension Database {
    /// Whether this object was closed (its operations throw notOpen).
    fileprivate var isClosedForSpecs: Bool {
        (try? defaultScope()) == nil
    }
}
