import Foundation
import Quire

/// One case on a test server (see ``TestKitEngine``). It knows the databases and collections
/// it asked `/reset` for; until the case writes a document it may ask again with more.
final class TestKitSession: EngineSession {
    private let engine: TestKitEngine
    private var client: TestKitClient { engine.client }
    /// The databases of the case and their collections other than the default one.
    private var layout: [String: [CollectionName]]
    private var current: String
    /// Whether a document was written: from then on a `/reset` would lose it.
    private var written = false
    private var closed = false
    /// The listeners `serve` started, stopped at the end of the case.
    private var listeners: [String] = []

    /// Whether the case's steps now run in a session the server hosts (Quire's extension,
    /// `/quire/v1/session/`): from the first step the other routes cannot express on, every
    /// step goes there, so that one set of objects sees the whole case.
    private var hosted = false
    /// The prefix of the extension's session routes.
    private static let sessionRoutes = "/quire/v1/session/"

    init(engine: TestKitEngine, given: Given) throws {
        self.engine = engine
        layout = [given.database: []]
        current = given.database
        do {
            try begin(given)
        } catch {
            // The engine frees the server when a session cannot start; this one never held it.
            closed = true
            throw error
        }
    }

    /// Resets the server for the case, and starts a hosted session when the case needs one.
    private func begin(_ given: Given) throws {
        guard engine.usesExtension, given.fixture != nil || given.clock != .system else {
            try reset()
            return
        }
        // A fixture or a manual clock is the hosted session's from the start: its database is
        // made by the session, not by /reset.
        layout = [:]
        try reset()
        layout = [given.database: []]
        var start: [String: JSONValue] = ["database": .string(given.database)]
        if case .manual(let date) = given.clock {
            start["clock"] = .int(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        }
        if let fixture = given.fixture { start["fixture"] = .string(fixture.path) }
        try startHosted(
            start,
            instead: given.fixture != nil
                ? EngineError.missingCapability(.fixtures, "the server runs no steps of its own to install a fixture")
                : EngineError.missingCapability(.manualClock, "the server runs no steps of its own to set a clock"))
    }

    /// Asks the server for exactly the layout's databases and collections.
    private func reset() throws {
        var databases: [String: JSONValue] = [:]
        for (name, collections) in layout {
            databases[name] =
                collections.isEmpty
                ? .object([:]) : .object(["collections": .array(collections.map { .string($0.fullName) })])
        }
        try client.post("/reset", client.versioned(["databases": .object(databases)]))
    }

    func perform(_ step: Step, in context: StepContext) throws -> SpecValue? {
        guard engine.usesExtension else { return try routed(step) }
        if !hosted {
            let canHost = engine.hostsSteps.withLock { $0 } != false
            if Self.isRouted(step, holding: canHost ? context.objectName : nil) {
                do {
                    return try routed(step)
                } catch let error as EngineError where error.isMissingCapability && canHost {
                    // The routes cannot say it this way (a read-only listener, a generated ID
                    // ...): the hosted session can.
                    try startHostedMidCase(instead: error)
                }
            } else {
                do {
                    try startHostedMidCase()
                } catch let error as EngineError where error.isMissingCapability && Self.isRouted(step, holding: nil) {
                    // The server hosts no steps: the routes carry what they can.
                    return try routed(step)
                }
            }
        }
        return try performHosted(step, in: context)
    }

    /// Starts the hosted session on the current database, whose collections the case made
    /// through the routes: the session creates them again (which finds them), so that it holds
    /// their objects as the app that made them would.
    private func startHostedMidCase(instead missing: EngineError? = nil) throws {
        try startHosted(["database": .string(current)], instead: missing)
        for name in layout[current, default: []] {
            _ = try performHosted(
                .createCollection(name),
                in: StepContext(
                    location: SourceLocation(file: "", line: 0, column: 0), directory: URL(fileURLWithPath: "/"),
                    specDirectory: URL(fileURLWithPath: "/"), seed: 0))
        }
    }

    /// Whether the protocol's endpoints and the extension's other routes express `step` as
    /// the runner asks it.
    private static func isRouted(_ step: Step, holding objectName: String?) -> Bool {
        switch step {
        case .get, .save:
            // A document held under a name (`as:`) is an object later steps work on: the
            // hosted session's.
            guard objectName == nil else { return false }
            if case .save(let save) = step {
                return save.id != nil && save.concurrency == .lastWriteWins && save.baseRevisionID == nil
            }
            return true
        case .createCollection, .purge, .count, .maintenance, .open, .request, .getValue, .scopes, .scope,
            .collections, .collection, .createIndex, .deleteIndex, .indexes, .replicate, .serve:
            return true
        case .delete(let delete): return delete.concurrency == .lastWriteWins && delete.baseRevisionID == nil
        case .query(let query): return query.result == .rows && query.reads == nil
        default: return false
        }
    }

    /// Starts the hosted session on the current database. `missing` is the capability error a
    /// step would have been skipped with: a server without hosted steps (404) answers it.
    private func startHosted(_ request: [String: JSONValue], instead missing: EngineError? = nil) throws {
        do {
            try client.post("/quire/v1/session/start", .object(request))
        } catch let error as EngineError where error.domain == "TestKit" && error.code == "404" {
            engine.hostsSteps.withLock { $0 = false }
            throw missing
                ?? EngineError.missingCapability(
                    "hostedSteps", "the server runs no steps of its own (\(Self.sessionRoutes)start is 404)")
        }
        hosted = true
    }

    /// Performs a step in the hosted session: sent as the spec wrote it, decoded there.
    private func performHosted(_ step: Step, in context: StepContext) throws -> SpecValue? {
        guard let source = context.source ?? Self.source(of: step) else {
            throw EngineError.missingCapability(
                EngineCapability(step.keyword), "the step has no spec form to send to the hosted session")
        }
        let answer = try hostedCall(
            "step", HostedSteps.stepRequest(keyword: source.keyword, arguments: source.arguments, context: context))
        guard case .object(let members)? = answer else { throw unexpected("\(Self.sessionRoutes)step", answer) }
        return members["result"].map(SpecValue.init(json:))
    }

    /// Calls a session route; its `{error}` answer is thrown as the error it stands for.
    private func hostedCall(_ route: String, _ request: [String: JSONValue]) throws -> JSONValue? {
        let answer = try client.post("\(Self.sessionRoutes)\(route)", .object(request))
        if let error = HostedSteps.error(in: answer) { throw error }
        return answer
    }

    /// The spec form of the steps the runner makes itself (`given:`'s collections and
    /// documents).
    private static func source(of step: Step) -> StepSource? {
        switch step {
        case .createCollection(let name):
            return StepSource(
                keyword: "createCollection",
                arguments: .object(["name": .string(name.name), "scope": .string(name.scope)]))
        case .save(let save):
            guard let id = save.id, case .properties(let body) = save.content, save.baseRevisionID == nil,
                save.concurrency == .lastWriteWins
            else { return nil }
            return StepSource(
                keyword: "save",
                arguments: .object([
                    "id": .string(id), "collection": .string(save.collection.fullName), "body": .object(body),
                ]))
        default: return nil
        }
    }

    /// A step through the protocol's endpoints (and, when on, the extension's routes).
    private func routed(_ step: Step) throws -> SpecValue? {
        switch step {
        case .createCollection(let name): return try createCollection(name)
        case .save(let save): return try self.save(save)
        case .get(let reference): return try state(of: reference).value
        case .delete(let delete): try remove(delete.document, type: "DELETE")
        case .purge(let reference): try remove(reference, type: "PURGE")
        case .count(let name):
            try requireCollection(name)
            let answer = try client.post(
                "/getAllDocuments", .object(["database": .string(current), "collections": [.string(name.fullName)]]))
            guard case .object(let members)? = answer, case .array(let documents)? = members[name.fullName] else {
                throw unexpected("/getAllDocuments", answer)
            }
            return .int(documents.count)
        case .query(let query) where !query.parameters.isEmpty:
            return try extensionCall(
                "runQuery",
                ["query": .string(query.sql), "parameters": .object(query.parameters.mapValues(\.jsonValue))],
                answer: "results")
        case .query(let query):
            let answer = try client.post(
                "/runQuery", .object(["database": .string(current), "query": .string(query.sql)]))
            guard case .object(let members)? = answer, case .array(let rows)? = members["results"] else {
                throw unexpected("/runQuery", answer)
            }
            return .array(rows.map(SpecValue.init(json:)))
        case .maintenance(let type):
            try client.post(
                "/performMaintenance", .object(["database": .string(current), "maintenanceType": .string(type)]))
        case .open(let name):
            try makeDatabase(name)
            current = name
        case .replicate(let replication): return try replicate(replication)
        case .serve(let name, let readOnly, let keepsConflicts):
            guard !keepsConflicts else {
                throw EngineError.missingCapability(
                    "serve.conflicts", "Couchbase Lite's listeners refuse incoming conflicts; they cannot keep them")
            }
            return try serve(name, readOnly: readOnly)
        case .request(let method, let text, let body):
            // A CouchDB client's request to a listener the server started: sent from here.
            guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw EngineError(
                    domain: QuireError.Domain.quire.rawValue, code: QuireError.Code.invalidParameter.name,
                    message: "'\(text)' is not a URL such as http://127.0.0.1:4984/db")
            }
            do {
                return try QuireHTTPRequest.send(method: method, url: url, body: body)
            } catch let error as QuireError {
                throw EngineError(domain: error.domain.rawValue, code: error.code.name, message: error.message)
            }
        case .getValue(let read) where !engine.usesExtension:
            return try plainValue(read)
        case .getValue(let read):
            try requireCollection(read.document.collection)
            do {
                return try extensionCall(
                    "getValue",
                    [
                        "collection": .string(read.document.collection.fullName), "id": .string(read.document.id),
                        "key": .string(read.key), "as": .string("\(read.type)"),
                    ], answer: "value")
            } catch let error as EngineError where error.domain == "TestKit" && error.code == "404" {
                throw EngineError.refusal(
                    "notFound",
                    "document '\(read.document.id)' not found in \(read.document.collection.fullName), so there is no object to read"
                )
            }
        case .scopes: return try extensionCall("scopes", [:], answer: "scopes")
        case .scope(let name): return try extensionCall("scope", ["name": .string(name)], answer: "scope")
        case .collections(let scope):
            return try extensionCall("collections", ["scope": .string(scope)], answer: "collections")
        case .collection(let name):
            return try extensionCall(
                "collection", ["scope": .string(name.scope), "name": .string(name.name)], answer: "collection")
        case .createIndex(let index):
            try requireCollection(index.collection)
            var arguments: [String: JSONValue] = [
                "collection": .string(index.collection.fullName), "name": .string(index.name),
                "kind": .string("\(index.kind)"),
                "expressions": .array(index.expressions.map(JSONValue.string)),
                "ignoreAccents": .bool(index.ignoreAccents),
            ]
            if let clause = index.whereClause { arguments["where"] = .string(clause) }
            if let language = index.language { arguments["language"] = .string(language) }
            if let path = index.path { arguments["path"] = .string(path) }
            _ = try extensionCall("createIndex", arguments, answer: nil)
        case .deleteIndex(let name, let collection):
            try requireCollection(collection)
            _ = try extensionCall(
                "deleteIndex", ["collection": .string(collection.fullName), "name": .string(name)], answer: nil)
        case .indexes(let collection):
            try requireCollection(collection)
            return try extensionCall("indexes", ["collection": .string(collection.fullName)], answer: "indexes")
        default:
            throw EngineError.missingCapability(
                EngineCapability(step.keyword), "the test-kit engine has no request for \(step.keyword)")
        }
        return nil
    }

    func inBatch(_ body: () throws -> Void) throws {
        throw EngineError.missingCapability(.transactions, "the test-kit protocol runs no steps as one transaction")
    }

    func documentState(of document: DocumentReference) throws -> DocumentState {
        if hosted {
            let answer = try hostedCall(
                "document",
                ["collection": .string(document.collection.fullName), "id": .string(document.id)])
            guard let state = try Self.state(answer, of: document).state else {
                throw unexpected("\(Self.sessionRoutes)document", answer)
            }
            return state
        }
        guard let state = try state(of: document).state else {
            throw EngineError.missingCapability(
                .documentState, "the protocol answers 404 for a tombstone and for nothing alike")
        }
        return state
    }

    func isBlobStored(digest: String) throws -> Bool {
        guard engine.usesExtension else { throw EngineError.unsupported("blob checks") }
        if !hosted { try startHostedMidCase() }
        let answer = try hostedCall("blob", ["digest": .string(digest)])
        guard case .object(let members)? = answer, case .bool(let stored)? = members["stored"] else {
            throw unexpected("\(Self.sessionRoutes)blob", answer)
        }
        return stored
    }

    func close() throws {
        guard !closed else { return }
        closed = true
        defer { engine.release() }
        if hosted { try client.post("\(Self.sessionRoutes)end", .object([:])) }
        for id in listeners { try client.post("/stopListener", .object(["id": .string(id)])) }
    }

    deinit { if !closed { engine.release() } }

    // MARK: Steps

    private func createCollection(_ name: CollectionName) throws -> SpecValue {
        let info: SpecValue = .object([
            "name": .string(name.name), "scope": .string(name.scope), "fullName": .string(name.fullName),
        ])
        if name == .default || layout[current, default: []].contains(name) { return info }
        if engine.usesExtension {
            let answer = try client.post(
                "/quire/v1/createCollection",
                .object(["database": .string(current), "scope": .string(name.scope), "name": .string(name.name)]))
            layout[current, default: []].append(name)
            return answer.map(SpecValue.init(json:)) ?? info
        }
        if [name.name, name.scope].contains(where: { $0.isEmpty || $0.contains(".") }) {
            throw EngineError.missingCapability(
                .collectionNames,
                "the protocol names collections <scope>.<collection>, which cannot carry '\(name.scope)' / '\(name.name)'"
            )
        }
        guard !written else {
            throw EngineError.missingCapability(
                .collectionsAfterWrites,
                "the protocol makes collections only by /reset, which would lose the documents written")
        }
        layout[current, default: []].append(name)
        do {
            try reset()
        } catch {
            // The server refused the name: ask again for the layout without it.
            layout[current]?.removeAll { $0 == name }
            try reset()
            throw error
        }
        return info
    }

    private func save(_ save: Step.Save) throws -> SpecValue {
        guard let id = save.id else {
            throw EngineError.missingCapability(.generatedIDs, "the test-kit engine saves only documents with IDs")
        }
        try requireCollection(save.collection)
        let reference = DocumentReference(id, in: save.collection)
        written = true
        if engine.usesExtension {
            var request: [String: JSONValue] = [
                "database": .string(current), "collection": .string(save.collection.fullName), "id": .string(id),
            ]
            switch save.content {
            case .properties(let body): request["body"] = .object(body.mapValues(\.jsonValue))
            case .json(let text): request["json"] = .string(text)
            }
            return try Self.state(try client.post("/quire/v1/saveDocument", .object(request)), of: reference).value
        }
        guard case .properties(let body) = save.content else {
            throw EngineError.missingCapability(
                .rawJSON, "the protocol's updates carry JSON values, not text for the store's parser")
        }
        // An update of the protocol merges key paths into the body: set every top-level key
        // of the new body and remove the current body's other keys, so that the body is replaced.
        let existing = try plainState(of: reference)
        var old: [String: SpecValue] = [:]
        if case .live(let snapshot)? = existing.state { old = snapshot.properties }
        let removed = old.keys.filter { body[$0] == nil }.sorted().map { JSONValue.string(Self.keyPath($0)) }
        let updated = body.keys.sorted().map { JSONValue.object([Self.keyPath($0): body[$0]!.jsonValue]) }
        var update: [String: JSONValue] = [
            "type": "UPDATE", "collection": .string(save.collection.fullName), "documentID": .string(id),
            "updatedProperties": .array(updated),
        ]
        if !removed.isEmpty { update["removedProperties"] = .array(removed) }
        try client.post("/updateDatabase", .object(["database": .string(current), "updates": [.object(update)]]))
        return try plainState(of: reference).value
    }

    /// Deletes or purges a live document (the protocol's update ignores one that is not live,
    /// where the store reports an error; with the extension, a tombstone may be purged).
    private func remove(_ reference: DocumentReference, type: String) throws {
        try requireCollection(reference.collection)
        let found = try state(of: reference).state
        switch found {
        case .live?: break
        case .deleted? where type == "PURGE" && engine.usesExtension: break
        default:
            throw EngineError.missingCapability(
                .documentState,
                "\(type.lowercased()) of a document that is not live: the protocol's update answers nothing for it")
        }
        written = true
        try client.post(
            "/updateDatabase",
            .object([
                "database": .string(current),
                "updates": [
                    .object([
                        "type": .string(type), "collection": .string(reference.collection.fullName),
                        "documentID": .string(reference.id),
                    ])
                ],
            ]))
    }

    /// `serve`: `/startListener` on every collection of the database (plain HTTP); returns
    /// `{url}` on the server's host.
    private func serve(_ name: String, readOnly: Bool) throws -> SpecValue {
        guard !readOnly else {
            throw EngineError.missingCapability("serve.readOnly", "the protocol's listeners cannot be read-only")
        }
        try makeDatabase(name)
        let collections = [CollectionName.default] + layout[name, default: []]
        let answer: JSONValue?
        do {
            answer = try client.post(
                "/startListener",
                .object([
                    "database": .string(name), "collections": .array(collections.map { .string($0.fullName) }),
                    "disableTLS": true,
                ]))
        } catch let error as EngineError where Self.needsEnterprise(error) {
            // A community build of Couchbase Lite has no URLEndpointListener.
            throw EngineError.missingCapability(
                "serve", "the server's Couchbase Lite has no listener (\(error.message))")
        }
        guard case .object(let members)? = answer, case .string(let id)? = members["id"],
            case .int(let port)? = members["port"]
        else {
            throw unexpected("/startListener", answer)
        }
        listeners.append(id)
        let host = client.base.host ?? "127.0.0.1"
        let path = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name
        return .object(["url": .string("http://\(host):\(port)/\(path)")])
    }

    /// Whether `error` is a server's refusal of something only Couchbase Lite Enterprise
    /// Edition does (Couchbase Lite C's test server: `500 TESTSERVER "… requires Enterprise Edition"`).
    static func needsEnterprise(_ error: EngineError) -> Bool {
        error.domain == "TestKit" && error.message.contains("Enterprise Edition")
    }

    /// Makes database `name` if the case has none of that name: by `/reset` while the case has
    /// written nothing, else by the extension's `openDatabase`.
    private func makeDatabase(_ name: String) throws {
        guard layout[name] == nil else { return }
        if engine.usesExtension {
            try client.post("/quire/v1/openDatabase", .object(["database": .string(name)]))
            layout[name] = []
            return
        }
        guard !written else {
            throw EngineError.missingCapability(
                .databasesAfterWrites,
                "the protocol makes databases only by /reset, which would lose the documents written")
        }
        layout[name] = []
        try reset()
    }

    /// `replicate`: a one-shot `/quire/v1/startReplicator` (the protocol's, with at most 3
    /// attempts at most 2 s apart) with the document listener on, polled with
    /// `/getReplicatorStatus` until it stops; returns `{pushed, pulled, error, errorCode}`, the
    /// documents each way replicated without an error.
    private func replicate(_ replication: Step.Replication) throws -> SpecValue {
        let name = replication.database ?? current
        try makeDatabase(name)
        for collection in replication.collections
        where collection != .default && !layout[name, default: []].contains(collection) {
            throw EngineError(
                domain: QuireError.Domain.quire.rawValue, code: QuireError.Code.notFound.name,
                message: "collection \(collection.fullName) does not exist in '\(name)'")
        }
        var entry: [String: JSONValue] = ["names": .array(replication.collections.map { .string($0.fullName) })]
        if let channels = replication.channels { entry["channels"] = .array(channels.map(JSONValue.string)) }
        if let documentIDs = replication.documentIDs {
            entry["documentIDs"] = .array(documentIDs.map(JSONValue.string))
        }
        let config: JSONValue = .object([
            "database": .string(name), "collections": [.object(entry)], "endpoint": .string(replication.url),
            "replicatorType": .string("\(replication.type)"), "continuous": false, "enableDocumentListener": true,
        ])
        guard engine.usesExtension, case .object(var bounded) = config else {
            throw EngineError.missingCapability(
                "replicationRetries",
                "the protocol cannot bound a failing replicator's attempts (3, at most 2 s apart, as the step asks)")
        }
        bounded["maxAttempts"] = 3
        bounded["maxAttemptWaitTime"] = 2
        let started = try client.post(
            "/quire/v1/startReplicator", .object(["config": .object(bounded), "reset": .bool(replication.reset)]))
        guard case .object(let members)? = started, case .string(let id)? = members["id"] else {
            throw unexpected("/startReplicator", started)
        }
        var (pushed, pulled) = (0, 0)
        // A one-shot replicator stops by itself; the bound only guards against one that never does.
        let deadline = Date().addingTimeInterval(600)
        while true {
            let answer = try client.post("/getReplicatorStatus", .object(["id": .string(id)]))
            guard case .object(let status)? = answer, case .string(let activity)? = status["activity"] else {
                throw unexpected("/getReplicatorStatus", answer)
            }
            if case .array(let documents)? = status["documents"] {
                for case .object(let document) in documents where document["error"] == nil || document["error"] == .null
                {
                    if document["isPush"] == .bool(true) { pushed += 1 } else { pulled += 1 }
                }
            }
            if activity == "STOPPED" {
                var error: SpecValue = .null
                var code: SpecValue = .null
                if case .object(let failure)? = status["error"] {
                    let mapped = TestKitClient.error(
                        status: 400, body: .object(failure), data: Data(), path: "/getReplicatorStatus")
                    (error, code) = (.string(mapped.message), .string(mapped.code))
                }
                return .object(["pushed": .int(pushed), "pulled": .int(pulled), "error": error, "errorCode": code])
            }
            guard Date() < deadline else {
                throw EngineError(
                    domain: "Network", code: "timeout", message: "replicator \(id) did not stop within 600 s")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    // MARK: Reading documents

    /// A document's state and the value `get` returns for it.
    private func state(of reference: DocumentReference) throws -> (state: DocumentState?, value: SpecValue) {
        try requireCollection(reference.collection)
        guard engine.usesExtension else { return try plainState(of: reference) }
        let answer = try client.post(
            "/quire/v1/document",
            .object([
                "database": .string(current), "collection": .string(reference.collection.fullName),
                "id": .string(reference.id),
            ]))
        return try Self.state(answer, of: reference)
    }

    /// The extension's answer as a state.
    private static func state(_ answer: JSONValue?, of reference: DocumentReference) throws -> (
        state: DocumentState?, value: SpecValue
    ) {
        guard case .object(let members)? = answer, case .string(let state)? = members["state"] else {
            throw EngineError(domain: "TestKit", code: "badAnswer", message: "/quire/v1 answered no document state")
        }
        switch (state, members["revisionID"], members["sequence"], members["body"]) {
        case ("live", .string(let revision)?, .int(let sequence)?, .object(let body)?):
            var expiration: Int?
            if case .int(let milliseconds)? = members["expiration"] { expiration = Int(milliseconds) }
            let snapshot = DocumentSnapshot(
                reference, revisionID: revision, sequence: Int(sequence),
                properties: body.mapValues(SpecValue.init(json:)),
                expiration: expiration)
            return (.live(snapshot), snapshot.specValue)
        case ("deleted", .string(let revision)?, _, _): return (.deleted(revisionID: revision), .null)
        case ("absent", _, _, _): return (.absent, .null)
        default:
            throw EngineError(
                domain: "TestKit", code: "badAnswer", message: "/quire/v1 answered an unknown document state '\(state)'"
            )
        }
    }

    /// A document through `/getDocument`: live, or an unknown state (nil) when it is not: the
    /// protocol answers 404 for a tombstone and for nothing alike. `get` of such a document is
    /// null either way. The protocol tells no sequence: `_meta` has none.
    private func plainState(of reference: DocumentReference) throws -> (state: DocumentState?, value: SpecValue) {
        let answer: JSONValue?
        do {
            answer = try client.post(
                "/getDocument",
                .object([
                    "database": .string(current),
                    "document": .object([
                        "collection": .string(reference.collection.fullName), "id": .string(reference.id),
                    ]),
                ]))
        } catch let error as EngineError where error.domain == "TestKit" && error.code == "404" {
            return (nil, .null)
        }
        guard case .object(var body)? = answer else { throw unexpected("/getDocument", answer) }
        var revision = ""
        if case .string(let revisions)? = body["_revs"] {
            revision = revisions.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        }
        body["_id"] = nil
        body["_revs"] = nil
        let properties = body.mapValues(SpecValue.init(json:))
        // The sequence is unknown here; document checks read only the state and properties.
        let snapshot = DocumentSnapshot(reference, revisionID: revision, sequence: 0, properties: properties)
        var value = properties
        value[DocumentSnapshot.metaKey] = .object([
            "id": .string(reference.id), "collection": .string(reference.collection.fullName),
            "revisionID": .string(revision),
        ])
        return (.live(snapshot), .object(value))
    }

    /// A typed read over the plain protocol: the document through `/getDocument`, and the
    /// stored value when it is already of the getter's type, which every getter returns as it
    /// is (an integer for `int`, text for `string` ...). A value the getter would convert, a
    /// missing key, a date or a blob is Couchbase Lite's rule, which the protocol cannot ask
    /// for: not carried.
    private func plainValue(_ read: Step.TypedRead) throws -> SpecValue? {
        let (state, value) = try plainState(of: read.document)
        guard state != nil, case .object(let properties) = value else {
            throw EngineError.refusal(
                "notFound",
                "document '\(read.document.id)' not found in \(read.document.collection.fullName), so there is no object to read"
            )
        }
        let stored = read.key == DocumentSnapshot.metaKey ? nil : properties[read.key]
        switch (read.type, stored) {
        case (.int, .int?), (.int64, .int?), (.double, .double?), (.number, .int?), (.number, .double?),
            (.boolean, .bool?), (.string, .string?), (.array, .array?):
            return stored
        case (.dictionary, .object(let members)?) where members["@type"] == nil:
            return stored
        default:
            throw EngineError.missingCapability(
                "getValue.conversion",
                "the plain protocol reads stored values; what \(read.type)(forKey:) makes of \(stored.map { _ in "this value" } ?? "a missing key") is Couchbase Lite's rule"
            )
        }
    }

    // MARK: Helpers

    /// Steps on a collection the case never made fail as the store fails them: the session
    /// made every collection there is, so it knows.
    private func requireCollection(_ name: CollectionName) throws {
        guard name == .default || layout[current, default: []].contains(name) else {
            throw EngineError(
                domain: QuireError.Domain.quire.rawValue, code: QuireError.Code.notFound.name,
                message: "collection \(name.fullName) does not exist")
        }
    }

    /// A key path of the protocol naming one top-level property, escaped.
    static func keyPath(_ key: String) -> String {
        var escaped = ""
        for character in key {
            if "\\.[]".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped.hasPrefix("$") ? "$." + escaped : escaped
    }

    /// Calls a route of the Quire extension on the current database; returns the member
    /// `answer` of its answer (nil for none).
    private func extensionCall(_ route: String, _ arguments: [String: JSONValue], answer key: String?) throws
        -> SpecValue?
    {
        guard engine.usesExtension else {
            throw EngineError.missingCapability(
                EngineCapability(route), "the plain test-kit protocol has no request for it")
        }
        var body = arguments
        body["database"] = .string(current)
        let answer = try client.post("/quire/v1/\(route)", .object(body))
        guard let key else { return nil }
        guard case .object(let members)? = answer, let value = members[key] else {
            throw unexpected("/quire/v1/\(route)", answer)
        }
        return SpecValue(json: value)
    }

    private func unexpected(_ path: String, _ answer: JSONValue?) -> EngineError {
        EngineError(
            domain: "TestKit", code: "badAnswer", message: "\(path) answered in another shape than the protocol's")
    }
}
