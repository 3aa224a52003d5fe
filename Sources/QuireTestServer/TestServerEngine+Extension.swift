import Foundation
import Quire

/// Quire's extension of the test-kit protocol, under its own route prefix (`/quire/v1/`), for
/// what the public protocol cannot express: creating a collection in a database that already
/// holds documents (with Quire's naming checks), replacing a document's whole body, and reading
/// a document's full state (live, a tombstone or absent, with its revision and sequence),
/// typed property reads, scope and collection look-ups, indexes, and queries with parameters.
///
/// The requests carry the same headers as the protocol's own and fail with its error object.
/// Specs/README.md documents each route; `quire conform --engine testkit:` uses them unless
/// told not to.
extension TestServerEngine {
    /// The route prefix of the extension.
    public static let extensionPrefix = "/quire/v1/"

    /// Answers an extension route (without its prefix), or nil when there is no such route.
    func extensionRoute(_ route: String, _ request: RequestObject) throws -> TestServerResponse? {
        switch route {
        case "createCollection": return try createCollection(request)
        case "document": return try documentState(request)
        case "saveDocument": return try saveDocument(request)
        case "getValue": return try getValue(request)
        case "scopes", "scope", "collections", "collection": return try lookUp(route, request)
        case "createIndex", "deleteIndex", "indexes": return try index(route, request)
        case "runQuery": return try runQuery(withParameters: request)
        case "openDatabase": return try openDatabase(request)
        case "startReplicator": return try startReplicator(request, retries: true)
        default: return nil
        }
    }

    /// `/quire/v1/createCollection {database, scope, name}`: creates the collection (and its
    /// scope) if it is not there; answers `{name, scope, fullName}`. A name Quire refuses is the
    /// store's error.
    func createCollection(_ request: RequestObject) throws -> TestServerResponse {
        let (_, database) = try database(request)
        let collection = try database.createCollection(
            name: try request.string("name"), scope: try request.string("scope"))
        let scope = collection.scope.name
        return .json(
            .object([
                "name": .string(collection.name), "scope": .string(scope),
                "fullName": .string("\(scope).\(collection.name)"),
            ]))
    }

    /// `/quire/v1/document {database, collection, id}`: `{state: "live", revisionID, sequence,
    /// expiration, body}`, `{state: "deleted", revisionID}` or `{state: "absent"}`.
    func documentState(_ request: RequestObject) throws -> TestServerResponse {
        let (name, database) = try database(request)
        let collection = try CollectionPath(try request.string("collection")).existing(in: database, databaseName: name)
        return .json(try Self.state(of: try request.string("id"), in: collection))
    }

    /// `/quire/v1/saveDocument {database, collection, id, body}`: saves `body` as the
    /// document's whole new body (last write wins); answers the document's state afterwards.
    /// `json` (text, for Quire's own JSON parser, whose errors are the answer) may stand for
    /// `body`.
    func saveDocument(_ request: RequestObject) throws -> TestServerResponse {
        let (name, database) = try database(request)
        let collection = try CollectionPath(try request.string("collection")).existing(in: database, databaseName: name)
        let id = try request.string("id")
        if let text = try request.optionalString("json") {
            // Made from the text itself: a dictionary of it would merge keys that differ only in
            // Unicode normalisation (Swift's String equality), which the document keeps apart.
            try collection.save(document: MutableDocument(id: id, json: text))
            return .json(try Self.state(of: id, in: collection))
        }
        guard case .object(let body)? = request.value("body") else {
            throw TestServerError.request("'body' must be an object, or 'json' text")
        }
        let text = String(decoding: try JSONWriter.bytes(.object(body)), as: UTF8.self)
        let document = try collection.document(id: id)?.toMutable() ?? MutableDocument(id: id)
        _ = try document.setJSON(text)
        try collection.save(document: document)
        return .json(try Self.state(of: id, in: collection))
    }

    /// A document's state as the extension reports it.
    static func state(of id: String, in collection: Collection) throws -> JSONValue {
        guard let info = try collection.revisionInfo(id: id) else { return .object(["state": "absent"]) }
        if info.isDeleted { return .object(["state": "deleted", "revisionID": .string(info.revisionID)]) }
        guard let document = try collection.document(id: id), let revisionID = document.revisionID,
            let body = try body(of: id, in: collection)
        else { return .object(["state": "absent"]) }
        var state: [String: JSONValue] = [
            "state": "live", "revisionID": .string(revisionID), "sequence": .int(Int64(document.sequence)),
            "body": .object(body),
        ]
        if let expiration = try collection.getDocumentExpiration(id: id) {
            state["expiration"] = .int(Int64((expiration.timeIntervalSince1970 * 1000).rounded(.down)))
        }
        return .object(state)
    }

    /// `/quire/v1/getValue {database, collection, id, key, as}`: one top-level property read
    /// through a typed getter (`as`: int, int64, double, float, boolean, string, date, array,
    /// dictionary, blob, number), as an app reads it; answers `{value}`. 404 when the document
    /// is not live.
    func getValue(_ request: RequestObject) throws -> TestServerResponse {
        let (name, database) = try database(request)
        let collection = try CollectionPath(try request.string("collection")).existing(in: database, databaseName: name)
        let id = try request.string("id")
        guard let document = try collection.document(id: id) else {
            throw TestServerError.notFound(
                "document '\(id)' not found in '\(collection.fullName)' of database '\(name)'")
        }
        let key = try request.string("key")
        func json(_ text: String) throws -> JSONValue { try JSONReader.parse(text) }
        let value: JSONValue
        switch try request.string("as") {
        case "int": value = .int(Int64(document.int(forKey: key)))
        case "int64": value = .int(document.int64(forKey: key))
        case "double": value = .double(document.double(forKey: key))
        case "float": value = .double(Double(document.float(forKey: key)))
        case "boolean": value = .bool(document.boolean(forKey: key))
        case "string": value = document.string(forKey: key).map(JSONValue.string) ?? .null
        case "date":
            // The store's own writer gives the text form it keeps dates in.
            value =
                document.date(forKey: key).flatMap { MutableDocument().setDate($0, forKey: "d").string(forKey: "d") }
                .map(JSONValue.string) ?? .null
        case "array": value = try document.array(forKey: key).map { try json($0.toJSON()) } ?? .null
        case "dictionary": value = try document.dictionary(forKey: key).map { try json($0.toJSON()) } ?? .null
        case "blob": value = document.blob(forKey: key).flatMap { JSONValue(any: $0.properties) } ?? .null
        case "number":
            let raw = document.value(forKey: key)
            value =
                document.number(forKey: key).map {
                    raw is Double || raw is Float ? .double($0.doubleValue) : .int(Int64($0.intValue))
                } ?? .null
        case let other:
            throw TestServerError.request(
                "'as' must be a getter (int, int64, double, float, boolean, string, date, array, dictionary, blob, number), not '\(other)'"
            )
        }
        return .json(.object(["value": value]))
    }

    /// `/quire/v1/scopes {database}` answers `{scopes: [name]}` sorted; `scope {database,
    /// name}` answers `{scope: {name} | null}`; `collections {database, scope}` answers
    /// `{collections: [name]}`; `collection {database, scope, name}` answers `{collection:
    /// {name, scope, fullName} | null}`.
    func lookUp(_ route: String, _ request: RequestObject) throws -> TestServerResponse {
        let (_, database) = try database(request)
        switch route {
        case "scopes":
            return .json(.object(["scopes": .array(try database.scopes().map(\.name).sorted().map(JSONValue.string))]))
        case "scope":
            let scope = try database.scope(name: try request.string("name"))
            return .json(.object(["scope": scope.map { .object(["name": .string($0.name)]) } ?? .null]))
        case "collections":
            return .json(
                .object([
                    "collections": .array(
                        try database.collections(scope: try request.string("scope")).map { .string($0.name) })
                ]))
        default:
            let found = try database.collection(name: try request.string("name"), scope: try request.string("scope"))
            return .json(
                .object([
                    "collection": found.map { collection in
                        .object([
                            "name": .string(collection.name), "scope": .string(collection.scope.name),
                            "fullName": .string(collection.fullName),
                        ])
                    } ?? .null
                ]))
        }
    }

    /// `/quire/v1/createIndex {database, collection, name, kind: "value" | "fullText",
    /// expressions, where?, language?, ignoreAccents?}`, `deleteIndex {database, collection,
    /// name}` and `indexes {database, collection}` (answers `{indexes: [name]}`, sorted).
    func index(_ route: String, _ request: RequestObject) throws -> TestServerResponse {
        let (databaseName, database) = try database(request)
        let collection = try CollectionPath(try request.string("collection")).existing(
            in: database, databaseName: databaseName)
        switch route {
        case "indexes":
            return .json(.object(["indexes": .array(try collection.indexes().sorted().map(JSONValue.string))]))
        case "deleteIndex":
            try collection.deleteIndex(forName: try request.string("name"))
            return .ok
        default:
            let name = try request.string("name")
            let expressions = try request.strings("expressions")
            let whereClause = try request.optionalString("where")
            switch try request.string("kind") {
            case "value":
                try collection.createIndex(
                    withName: name, config: ValueIndexConfiguration(expressions, where: whereClause))
            case "fullText":
                try collection.createIndex(
                    withName: name,
                    config: FullTextIndexConfiguration(
                        expressions, where: whereClause,
                        ignoreAccents: try request.optionalBool("ignoreAccents") ?? false,
                        language: try request.optionalString("language") ?? "en"))
            case "array":
                try collection.createIndex(
                    withName: name,
                    config: ArrayIndexConfiguration(
                        path: try request.string("path"), expressions: expressions.isEmpty ? nil : expressions))
            case let other:
                throw TestServerError.request("'kind' must be value, fullText or array, not '\(other)'")
            }
            return .ok
        }
    }

    /// `/quire/v1/openDatabase {database}`: opens (creating if needed) a database beside the
    /// others, which a `/reset` would delete; answers an empty 200.
    func openDatabase(_ request: RequestObject) throws -> TestServerResponse {
        let name = try request.string("database")
        try Self.validateDatabaseName(name)
        if databases[name] == nil {
            databases[name] = try Database(
                name: name, config: DatabaseConfiguration(directory: configuration.directory.path))
        }
        return .ok
    }

    /// `/quire/v1/runQuery {database, query, parameters}`: `/runQuery` with named parameters;
    /// answers `{results}` as `/runQuery` does.
    func runQuery(withParameters request: RequestObject) throws -> TestServerResponse {
        let (_, database) = try database(request)
        let query = try database.createQuery(try request.string("query"))
        if case .object(let values)? = request.value("parameters") {
            let parameters = Parameters()
            for (name, value) in values { parameters.setJSONValue(value, forName: name) }
            query.parameters = parameters
        } else if request.value("parameters") != nil {
            throw TestServerError.request("'parameters' must be an object")
        }
        let rows = try query.execute().allResults().map { $0.toJSONValue() }
        return .json(.object(["results": .array(rows)]))
    }
}
