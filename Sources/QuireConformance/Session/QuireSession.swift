import Foundation
import Quire
import QuireFixtureBuilder
import QuireFixtures
import QuireListener
import QuireSync

/// One case's databases on the Quire engine.
final class QuireSession: EngineSession {
    let directory: URL
    let clock: any QuireClock
    let manualClock: ManualClock?
    var currentName: String
    var current: Database
    var open: [String: Database] = [:]
    /// More `Database` objects on the case's files, by the alias `open {name, as}` gave them.
    var instances: [String: Database] = [:]
    /// Collection objects as an app would hold them, per `Database` object: a step on a
    /// collection uses the object from the last step that created or looked it up through the
    /// current database object, so a deleted collection's object reports notOpen as in
    /// Couchbase Lite.
    var held: [HeldKey: Collection] = [:]
    /// Scope objects as an app would hold them, per `Database` object: from the last `scope`
    /// step, or the scope of the last collection created or looked up.
    var heldScopes: [HeldKey: Scope] = [:]
    /// Document objects as an app holds them, by the name a step's `as:` gave them.
    var objects: [String: Document] = [:]
    /// Dictionaries, arrays and blobs held on their own (`newDictionary`, `valueAt` with `as:`
    /// ...), by the name a step's `as:` gave them.
    var heldValues: [String: AnyObject] = [:]
    /// Listeners started by `serve`, stopped by ``close()``.
    var listeners: [URLEndpointListener] = []
    /// The performance baseline of this session, with the documents its preparation stored.
    private var baseline: (store: RawSQLiteBaseline, prepareIterations: Int)?
    /// The `bulkDocsPush` baseline of this session, with its listener.
    private var bulkDocs: BulkDocsBaseline?
    /// Change listeners added by `addChangeListener`.
    let changeRecorder = ChangeRecorder()
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

    var configuration: DatabaseConfiguration {
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

    /// Runs `step`: the table of contents of the steps, by what they work on; each section
    /// is an extension of its own (`QuireSession+Documents.swift` ...).
    private func performStep(_ step: Step, in context: StepContext) throws -> SpecValue? {
        switch step {
        case .createCollection, .deleteCollection, .collection, .scopeCollection, .scopeCollections, .collections,
            .scope, .scopes, .count, .databaseOf:
            return try collectionStep(step, in: context)
        case .save, .get, .saveObject, .deleteObject, .toMutable, .object, .purgeObject, .delete, .purge, .getValue,
            .setExpiration, .getExpiration, .advanceClock:
            return try documentStep(step, in: context)
        case .openConfigured, .databaseInfo, .deleteDatabaseByName, .open, .openInstance, .close, .reopen,
            .copyDatabase, .databaseExists, .maintenance, .deleteDatabase, .handle:
            return try databaseStep(step, in: context)
        case .blobCount, .saveBlob, .blobContent, .generateBlob, .readBlob, .damageBlob:
            return try blobStep(step, in: context)
        case .query, .createIndex, .deleteIndex, .indexes, .index, .explain, .addChangeListener, .waitForChange,
            .setQueryParameters, .changes, .removeChangeListener:
            return try queryStep(step, in: context)
        case .buildFixture, .verifyFixture, .installFixture:
            return try fixtureStep(step, in: context)
        case .serve, .request, .replicate, .checkpointDoctor:
            return try replicationStep(step, in: context)
        case .replicator(let operation):
            return try replicator(operation)
        case .container(let operation):
            return try container(operation, holdingAs: context.objectName)
        }
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
struct HeldKey: Hashable {
    let database: ObjectIdentifier
    let name: String

    init(_ database: Database, _ name: String) {
        self.database = ObjectIdentifier(database)
        self.name = name
    }
}

extension Database {
    /// Whether this object was closed (its operations throw notOpen).
    var isClosedForSpecs: Bool {
        (try? defaultScope()) == nil
    }
}

extension EngineError {
    /// A step that reached a section of ``QuireSession`` that does not run it: the table in
    /// `performStep` and the section disagree, which is a mistake in the engine, not the spec.
    static func misrouted(_ step: Step, to section: String) -> EngineError {
        EngineError(
            domain: conformanceDomain, code: "unexpectedError",
            message: "\(section) was handed a step it does not run: \(step)")
    }
}
