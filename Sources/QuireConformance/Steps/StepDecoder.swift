import Foundation

/// Turns a step's keyword and substituted arguments into a typed ``Step``.
enum StepDecoder {
    /// Keywords the runner handles itself.
    static let runnerKeywords: Set<String> = ["set", "inspect", "batch", "repeat"]

    /// Keywords that become a ``Step`` for the engine.
    static let engineKeywords: Set<String> = Set([
        "createCollection", "deleteCollection", "collection", "collections", "scope", "scopes", "save", "get",
        "delete", "purge", "count", "setExpiration", "getExpiration", "advanceClock", "query", "createIndex",
        "deleteIndex", "indexes", "open", "close", "reopen", "copyDatabase", "databaseExists", "deleteDatabase",
        "saveBlob", "blobContent", "maintenance", "buildFixture", "verifyFixture", "installFixture",
        "serve", "request", "replicate", "checkpointDoctor", "getValue", "explain", "addChangeListener", "changes",
        "removeChangeListener", "waitForChange", "setQueryParameters",
        "generateBlob", "readBlob", "damageBlob", "toMutable", "object",
        "canOpen", "isOpened", "blockade", "unblockade", "closeHandles", "purgeFreeHandles", "tag",
        "databaseInfo", "databaseOf", "blobCount", "index",
    ]).union(Step.ReplicatorOperation.keywords).union(Step.ContainerOperation.keywords)

    static func decode(keyword: String, arguments value: SpecValue, specDirectory: URL) throws -> Step {
        if let step = try ReplicatorStepDecoder.decode(keyword: keyword, arguments: value) { return step }
        if let step = try ContainerStepDecoder.decode(keyword: keyword, arguments: value) { return step }
        let arguments = try Arguments(keyword: keyword, value)
        switch keyword {
        case "createCollection": return .createCollection(try collectionName(arguments))
        case "deleteCollection": return .deleteCollection(try collectionName(arguments))
        case "collection":
            let name = try collectionName(arguments)
            if try arguments.bool("fromScope") == true { return .scopeCollection(name: name.name, scope: name.scope) }
            return .collection(name)
        case "collections":
            let scope = try arguments.optionalString("scope") ?? CollectionName.defaultName
            if try arguments.bool("fromScope") == true { return .scopeCollections(scope: scope) }
            return .collections(scope: scope)
        case "scope": return .scope(name: try arguments.string("name"))
        case "scopes": return .scopes
        case "save":
            if let name = try arguments.optionalString("object") { return .saveObject(try objectSave(name, arguments)) }
            return .save(try save(arguments))
        case "get": return .get(try document(arguments))
        case "delete":
            if let name = try arguments.optionalString("object") {
                guard arguments["id"] == nil, arguments["from"] == nil else {
                    throw ArgumentError("delete: 'object' names the document; 'id' and 'from' cannot be given with it")
                }
                return .deleteObject(
                    name: name,
                    collection: try arguments.optionalString("collection").map(CollectionName.init(fullName:)),
                    concurrency: try arguments.concurrency())
            }
            return .delete(try delete(arguments))
        case "toMutable": return .toMutable(name: try arguments.string("object"))
        case "object": return .object(name: try arguments.string("name"))
        case "purge":
            if let name = try arguments.optionalString("object") {
                guard arguments["id"] == nil else {
                    throw ArgumentError("purge: 'object' names the document; 'id' cannot be given with it")
                }
                return .purgeObject(
                    name: name,
                    collection: try arguments.optionalString("collection").map(CollectionName.init(fullName:)),
                    database: try arguments.optionalString("database"))
            }
            return .purge(try document(arguments))
        case "databaseInfo": return .databaseInfo
        case "databaseOf":
            if let scope = try arguments.optionalString("scope") { return .databaseOf(.scope(scope)) }
            return .databaseOf(
                .collection(CollectionName(fullName: try arguments.string("collection"))))
        case "blobCount": return .blobCount
        case "index":
            return .index(name: try arguments.string("name"), collection: try arguments.collection())
        case "count": return .count(try arguments.collection())
        case "setExpiration": return .setExpiration(try document(arguments), try expiration(arguments))
        case "getExpiration": return .getExpiration(try document(arguments))
        case "advanceClock": return .advanceClock(seconds: try arguments.number("seconds"))
        case "query":
            return .query(try query(arguments))
        case "createIndex": return .createIndex(try index(arguments))
        case "deleteIndex":
            return .deleteIndex(name: try arguments.string("name"), collection: try arguments.collection())
        case "indexes": return .indexes(try arguments.collection())
        case "open":
            if let alias = try arguments.optionalString("as") {
                return .openInstance(name: try arguments.string("name"), alias: alias)
            }
            if let fullSync = try arguments.bool("fullSync") {
                return .openConfigured(name: try arguments.string("name"), fullSync: fullSync)
            }
            return .open(name: try arguments.string("name"))
        case "close": return .close
        case "reopen": return .reopen
        case "copyDatabase": return .copyDatabase(try copy(arguments, specDirectory: specDirectory))
        case "databaseExists": return .databaseExists(name: try arguments.string("name"))
        case "deleteDatabase":
            if try arguments.bool("byName") == true { return .deleteDatabaseByName(name: try arguments.string("name")) }
            return .deleteDatabase(name: try arguments.string("name"))
        case "canOpen": return .handle(.canOpen)
        case "isOpened": return .handle(.isOpened)
        case "blockade": return .handle(.blockade)
        case "unblockade": return .handle(.unblockade)
        case "closeHandles": return .handle(.closeHandles)
        case "purgeFreeHandles": return .handle(.purgeFreeHandles)
        case "tag": return .handle(.tag(set: try arguments.integer("set")))
        case "saveBlob":
            return .saveBlob(
                content: try arguments.string("content"),
                contentType: try arguments.optionalString("contentType") ?? "application/octet-stream")
        case "blobContent":
            guard let properties = try arguments.object("blob") else { throw ArgumentError("blobContent needs 'blob'") }
            return .blobContent(properties: properties)
        case "maintenance": return .maintenance(type: try arguments.string("type"))
        case "buildFixture": return .buildFixture(try buildFixture(arguments, specDirectory: specDirectory))
        case "verifyFixture":
            return .verifyFixture(archive: try path(arguments, "archive", specDirectory: specDirectory))
        case "installFixture":
            return .installFixture(
                archive: try path(arguments, "archive", specDirectory: specDirectory),
                name: try arguments.string("name"),
                ifAbsent: try arguments.bool("ifAbsent") ?? false)
        case "serve":
            let conflicts = try arguments.optionalString("conflicts") ?? "refuse"
            guard conflicts == "keep" || conflicts == "refuse" else {
                throw ArgumentError("serve's 'conflicts' must be keep or refuse, not '\(conflicts)'")
            }
            return .serve(
                database: try arguments.string("database"), readOnly: try arguments.bool("readOnly") ?? false,
                keepsConflicts: conflicts == "keep")
        case "request":
            return .request(
                method: try arguments.optionalString("method") ?? "GET", url: try arguments.string("url"),
                body: arguments["body"])
        case "replicate": return .replicate(try replication(arguments))
        case "checkpointDoctor":
            return .checkpointDoctor(
                Step.DoctorQuery(
                    database: try arguments.optionalString("database"), collection: try arguments.collection(),
                    url: try arguments.string("url"), channels: try arguments.strings("channels") ?? [],
                    documentIDs: try arguments.strings("documentIDs") ?? []))
        case "getValue": return .getValue(try typedRead(arguments))
        case "explain":
            return .explain(
                Step.Query(sql: try arguments.string("sql"), parameters: try arguments.object("parameters") ?? [:]))
        case "addChangeListener":
            return .addChangeListener(
                Step.ChangeListener(
                    name: try arguments.string("name"), collection: try arguments.collection(),
                    documentID: try arguments.optionalString("id"), query: try arguments.optionalString("query"),
                    parameters: try arguments.object("parameters") ?? [:],
                    sameQueryAs: try arguments.optionalString("sameQueryAs"),
                    keepsToken: try arguments.bool("keepToken") ?? true))
        case "changes": return .changes(listener: try arguments.string("name"))
        case "removeChangeListener": return .removeChangeListener(name: try arguments.string("name"))
        case "waitForChange": return .waitForChange(name: try arguments.string("name"))
        case "setQueryParameters":
            return .setQueryParameters(
                name: try arguments.string("name"), parameters: try arguments.object("parameters") ?? [:])
        case "generateBlob":
            guard let size = try arguments.integer("size"), size >= 0 else {
                throw ArgumentError("generateBlob needs 'size', a number of bytes (0 or more)")
            }
            guard let seed = try arguments.integer("seed") else {
                throw ArgumentError("generateBlob needs 'seed', an integer")
            }
            return .generateBlob(
                size: size, seed: UInt64(bitPattern: Int64(seed)),
                contentType: try arguments.optionalString("contentType") ?? "application/octet-stream")
        case "readBlob":
            guard let properties = try arguments.object("blob") else { throw ArgumentError("readBlob needs 'blob'") }
            return .readBlob(properties: properties)
        case "damageBlob": return .damageBlob(digest: try arguments.string("digest"))
        default:
            let known = engineKeywords.union(runnerKeywords)
            throw ArgumentError("unknown step '\(keyword)'\(Suggestion.didYouMean(keyword, in: known))")
        }
    }

    private static func typedRead(_ arguments: Arguments) throws -> Step.TypedRead {
        let typeName = try arguments.string("as")
        guard let type = Step.ValueType(rawValue: typeName) else {
            let names = Step.ValueType.allCases.map(\.rawValue)
            throw ArgumentError(
                "getValue: unknown type \(JSONText.quote(typeName))\(Suggestion.didYouMean(typeName, in: names))")
        }
        return Step.TypedRead(document: try document(arguments), key: try arguments.string("key"), type: type)
    }

    private static func collectionName(_ arguments: Arguments) throws -> CollectionName {
        CollectionName(
            try arguments.string("name"), scope: try arguments.optionalString("scope") ?? CollectionName.defaultName)
    }

    private static func document(_ arguments: Arguments) throws -> DocumentReference {
        DocumentReference(try arguments.string("id"), in: try arguments.collection())
    }

    /// A document read earlier (`from: ${doc}`): its properties and its `_meta`.
    private static func readDocument(_ arguments: Arguments) throws -> (
        properties: [String: SpecValue], meta: [String: SpecValue]
    )? {
        guard let from = try arguments.object("from") else { return nil }
        guard let meta = from[DocumentSnapshot.metaKey]?.objectValue else {
            throw ArgumentError(
                "\(arguments.keyword): 'from' must be a document read by an earlier step (it has no _meta)")
        }
        var properties = from
        properties[DocumentSnapshot.metaKey] = nil
        return (properties, meta)
    }

    private static func save(_ arguments: Arguments) throws -> Step.Save {
        let read = try readDocument(arguments)
        let collection =
            try arguments.optionalString("collection").map(CollectionName.init(fullName:))
            ?? read?.meta["collection"]?.stringValue.map(CollectionName.init(fullName:)) ?? .default
        let id = try arguments.optionalString("id") ?? read?.meta["id"]?.stringValue
        var content: Step.Content
        if let json = try arguments.optionalString("json") {
            guard arguments["merge"] == nil, arguments["unset"] == nil else {
                throw ArgumentError("save: 'merge' and 'unset' cannot change a 'json' body")
            }
            content = .json(json)
        } else {
            var properties = try arguments.object("body") ?? read?.properties ?? [:]
            for (key, value) in try arguments.object("merge") ?? [:] { properties[key] = value }
            for key in try arguments.strings("unset") ?? [] { properties[key] = nil }
            content = .properties(properties)
        }
        return Step.Save(
            collection: collection, id: id, content: content, concurrency: try arguments.concurrency(),
            baseRevisionID: read?.meta["revisionID"]?.stringValue)
    }

    private static func objectSave(_ name: String, _ arguments: Arguments) throws -> Step.ObjectSave {
        for key in ["id", "from", "body", "json"] where arguments[key] != nil {
            throw ArgumentError(
                "save: 'object' saves a held document as it is; '\(key)' cannot be given with it (use 'merge' or 'unset')"
            )
        }
        return Step.ObjectSave(
            name: name, collection: try arguments.optionalString("collection").map(CollectionName.init(fullName:)),
            database: try arguments.optionalString("database"), merge: try arguments.object("merge") ?? [:],
            unset: try arguments.strings("unset") ?? [], concurrency: try arguments.concurrency(),
            conflictHandler: try conflictChoice(arguments))
    }

    /// `conflictHandler: keepMine | keepTheirs | cancel | {merge: [keys]}`.
    private static func conflictChoice(_ arguments: Arguments) throws -> Step.ConflictChoice? {
        guard let value = arguments["conflictHandler"] else { return nil }
        guard arguments["concurrency"] == nil else {
            throw ArgumentError("save: a conflictHandler decides the conflict; 'concurrency' cannot be given with it")
        }
        switch value {
        case .string("keepMine"): return .keepMine
        case .string("keepTheirs"): return .keepTheirs
        case .string("cancel"): return .cancel
        case .object(let members) where members.keys.sorted() == ["merge"]:
            let listed = members["merge"]?.arrayValue ?? []
            let keys = listed.compactMap(\.stringValue)
            guard !keys.isEmpty, keys.count == listed.count else {
                throw ArgumentError(
                    "save: conflictHandler 'merge' needs a list of keys to take from the stored document")
            }
            return .merge(keys: keys)
        case .object(let members) where !members.isEmpty:
            return .script(try conflictScript(members))
        default:
            let hint =
                value.stringValue.map { Suggestion.didYouMean($0, in: ["keepMine", "keepTheirs", "cancel"]) } ?? ""
            throw ArgumentError(
                "save: conflictHandler must be keepMine, keepTheirs, cancel or {merge: [keys]}, not \(ValueMatcher.render(value, limit: 80))\(hint)"
            )
        }
    }

    /// `conflictHandler: {merge: [keys], addTheirs: true, set: {...}, firstCallSaves: {...}}`.
    private static func conflictScript(_ members: [String: SpecValue]) throws -> Step.ConflictScript {
        let arguments = try Arguments(keyword: "save", .object(members))
        return Step.ConflictScript(
            merge: try arguments.strings("merge") ?? [], addTheirs: try arguments.bool("addTheirs") ?? false,
            set: try arguments.object("set") ?? [:], firstCallSaves: try arguments.object("firstCallSaves") ?? [:])
    }

    private static func delete(_ arguments: Arguments) throws -> Step.Delete {
        let read = try readDocument(arguments)
        guard let id = try arguments.optionalString("id") ?? read?.meta["id"]?.stringValue else {
            throw ArgumentError("delete needs 'id' or 'from'")
        }
        let collection =
            try arguments.optionalString("collection").map(CollectionName.init(fullName:))
            ?? read?.meta["collection"]?.stringValue.map(CollectionName.init(fullName:)) ?? .default
        return Step.Delete(
            document: DocumentReference(id, in: collection), concurrency: try arguments.concurrency(),
            baseRevisionID: read?.meta["revisionID"]?.stringValue)
    }

    private static func expiration(_ arguments: Arguments) throws -> Step.Expiration? {
        if arguments.values["in"] != nil {
            return .after(seconds: try arguments.number("in"))
        }
        switch arguments.values["at"] {
        case nil, .null?: return nil
        case .int(let milliseconds)?: return .at(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        case .string(let text)?:
            guard let date = ISO8601.date(from: text) else {
                throw ArgumentError(
                    "setExpiration: 'at' \(JSONText.quote(text)) is not an ISO-8601 time such as 2025-01-01T00:00:00Z")
            }
            return .at(date)
        case let other?:
            throw ArgumentError("setExpiration: 'at' must be an ISO-8601 time, milliseconds or null, not \(other)")
        }
    }

    private static func query(_ arguments: Arguments) throws -> Step.Query {
        let formName = try arguments.optionalString("result") ?? Step.QueryResultForm.rows.rawValue
        guard let form = Step.QueryResultForm(rawValue: formName) else {
            throw ArgumentError(
                "query: unknown result \(JSONText.quote(formName))\(Suggestion.didYouMean(formName, in: Step.QueryResultForm.allCases.map(\.rawValue)))"
            )
        }
        let reads = try arguments.strings("reads")?.map { name in
            guard let read = Step.QueryRead(rawValue: name) else {
                throw ArgumentError(
                    "query: unknown read \(JSONText.quote(name))\(Suggestion.didYouMean(name, in: Step.QueryRead.allCases.map(\.rawValue)))"
                )
            }
            return read
        }
        if form == .columnNames && reads != nil {
            throw ArgumentError("query: 'reads' reads rows, which result: columnNames does not give")
        }
        return Step.Query(
            sql: try arguments.string("sql"), parameters: try arguments.object("parameters") ?? [:], result: form,
            reads: reads)
    }

    private static func index(_ arguments: Arguments) throws -> Step.Index {
        let kindName = try arguments.optionalString("kind") ?? Step.IndexKind.value.rawValue
        guard let kind = Step.IndexKind(rawValue: kindName) else {
            throw ArgumentError(
                "createIndex: unknown kind \(JSONText.quote(kindName))\(Suggestion.didYouMean(kindName, in: Step.IndexKind.allCases.map(\.rawValue)))"
            )
        }
        return Step.Index(
            collection: try arguments.collection(), name: try arguments.string("name"), kind: kind,
            expressions: try arguments.strings("expressions") ?? [], whereClause: try arguments.optionalString("where"),
            language: try arguments.optionalString("language"),
            ignoreAccents: try arguments.bool("ignoreAccents") ?? false, path: try arguments.optionalString("path"))
    }

    /// A path argument; relative paths are relative to the spec file.
    private static func path(_ arguments: Arguments, _ key: String, specDirectory: URL) throws -> URL {
        URL(fileURLWithPath: try arguments.string(key), relativeTo: specDirectory).standardizedFileURL
    }

    private static func buildFixture(_ arguments: Arguments, specDirectory: URL) throws -> Step.BuildFixture {
        let recipe: Step.BuildFixture.Recipe
        switch (try arguments.optionalString("recipe"), try arguments.optionalString("recipeText")) {
        case (let file?, nil):
            recipe = .file(URL(fileURLWithPath: file, relativeTo: specDirectory).standardizedFileURL)
        case (nil, let text?):
            recipe = .text(text, baseFolder: specDirectory)
        default:
            throw ArgumentError("buildFixture needs one of 'recipe' (a file) and 'recipeText'")
        }
        return Step.BuildFixture(recipe: recipe, remoteURL: try arguments.optionalString("remoteURL"))
    }

    private static func replication(_ arguments: Arguments) throws -> Step.Replication {
        let typeName = try arguments.string("type")
        guard let type = Step.ReplicationType(rawValue: typeName) else {
            let names = Step.ReplicationType.allCases.map(\.rawValue)
            throw ArgumentError(
                "replicate: unknown type \(JSONText.quote(typeName))\(Suggestion.didYouMean(typeName, in: names))")
        }
        let collections = try arguments.strings("collections")?.map(CollectionName.init(fullName:)) ?? [.default]
        guard !collections.isEmpty else {
            throw ArgumentError("replicate: 'collections' must list at least one collection")
        }
        return Step.Replication(
            url: try arguments.string("url"), database: try arguments.optionalString("database"), type: type,
            collections: collections, channels: try arguments.strings("channels"),
            documentIDs: try arguments.strings("documentIDs"), reset: try arguments.bool("reset") ?? false)
    }

    private static func copy(_ arguments: Arguments, specDirectory: URL) throws -> Step.Copy {
        let source: Step.Copy.Source
        if let path = try arguments.optionalString("fromPath") {
            source = .path(URL(fileURLWithPath: path, relativeTo: specDirectory).standardizedFileURL)
        } else {
            source = .database(try arguments.string("from"))
        }
        return Step.Copy(
            source: source, destination: try arguments.string("to"), asFiles: try arguments.bool("asFiles") ?? false)
    }
}
