import Foundation
import Quire
import QuireListener
import QuireSync

/// The test-kit endpoints over Quire: the state one test server keeps (the session, its
/// databases, snapshots, replicators and listeners) and the answer to each request.
///
/// Requests are taken one at a time, as a test-kit client sends them; the HTTP side is in
/// ``TestServer``. Every failure becomes the protocol's error object with its status.
public actor TestServerEngine {
    /// The protocol version this server speaks by default (`CBLTest-API-Version`).
    public static let apiVersion = 2
    /// The request header carrying the protocol version.
    public static let versionHeader = "CBLTest-API-Version"
    /// The request header carrying the session (client) ID.
    public static let clientHeader = "CBLTest-Client-ID"
    /// The response header carrying the server's ID.
    public static let serverHeader = "CBLTest-Server-ID"
    /// Endpoints of the protocol for features Quire does not have.
    static let unsupported: [String: String] = [
        "/startMultipeerReplicator": "multipeer replication",
        "/stopMultipeerReplicator": "multipeer replication",
        "/getMultipeerReplicatorStatus": "multipeer replication",
    ]

    /// The protocol version this server speaks: ``TestServerConfiguration/apiVersion``.
    public nonisolated var spokenVersion: Int { configuration.apiVersion }
    /// This server's ID, sent in `CBLTest-Server-ID`.
    public nonisolated let serverID = UUID().uuidString.lowercased()
    nonisolated let configuration: TestServerConfiguration
    let catalog: DatasetCatalog
    var sessionID: String?
    var databases: [String: Database] = [:]
    var snapshots: [String: [String: (collection: CollectionPath, id: String, body: [String: JSONValue]?)]] = [:]
    var replicators: [String: ReplicatorRecord] = [:]
    var listeners: [String: URLEndpointListener] = [:]

    /// An engine keeping its databases in `configuration.directory`.
    public init(configuration: TestServerConfiguration) {
        self.configuration = configuration
        catalog = DatasetCatalog(root: configuration.datasetRoot)
    }

    /// The answer to one request. `headers` are looked up without regard to case.
    package func respond(method: String, path: String, headers: [String: String], body: [UInt8]) async
        -> TestServerResponse
    {
        do {
            return try await dispatch(method: method, path: path, headers: headers, body: body)
        } catch let error as TestServerError {
            return .failure(error)
        } catch let error as QuireError {
            return .failure(.store(error))
        } catch {
            return .failure(.server("\(error)"))
        }
    }

    private func dispatch(method: String, path: String, headers: [String: String], body: [UInt8]) async throws
        -> TestServerResponse
    {
        let route = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        if route == "/" {
            guard method == "GET" else { throw TestServerError.request("\(method) / is not an endpoint; use GET /") }
            return .json(info())
        }
        let version = header(Self.versionHeader)
        guard version?.trimmingCharacters(in: .whitespaces) == String(spokenVersion) else {
            throw TestServerError.request(
                version == nil
                    ? "the \(Self.versionHeader) header is missing; this server speaks version \(spokenVersion)"
                    : "\(Self.versionHeader) '\(version ?? "")' is not supported; this server speaks version \(spokenVersion)"
            )
        }
        guard method == "POST" else { throw TestServerError.request("\(method) \(route) is not an endpoint; use POST") }
        if let feature = Self.unsupported[route] {
            throw TestServerError.request("\(route): \(feature) is not supported by Quire")
        }
        if route == "/newSession" {
            return try await newSession(RequestObject.parse(body, endpoint: route))
        }
        guard let client = header(Self.clientHeader), !client.isEmpty else {
            throw TestServerError.request(
                "the \(Self.clientHeader) header is missing; start a session with /newSession")
        }
        guard client == sessionID else {
            throw TestServerError.request("client ID '\(client)' was not introduced with /newSession")
        }
        let request = try RequestObject.parse(body, endpoint: route)
        if route.hasPrefix(Self.sessionPrefix) {
            return try await sessionRoute(String(route.dropFirst(Self.sessionPrefix.count)), request)
        }
        if route.hasPrefix(Self.extensionPrefix),
            let answer = try extensionRoute(String(route.dropFirst(Self.extensionPrefix.count)), request)
        {
            return answer
        }
        switch route {
        case "/reset": return try await reset(request)
        case "/getAllDocuments": return try getAllDocuments(request)
        case "/getDocument": return try getDocument(request)
        case "/updateDatabase": return try updateDatabase(request)
        case "/snapshotDocuments": return try snapshotDocuments(request)
        case "/verifyDocuments": return try verifyDocuments(request)
        case "/runQuery": return try runQuery(request)
        case "/performMaintenance": return try performMaintenance(request)
        case "/startReplicator": return try startReplicator(request)
        case "/getReplicatorStatus": return try replicatorStatus(request)
        case "/stopReplicator": return try stopReplicator(request)
        case "/startListener": return try await startListener(request)
        case "/stopListener": return try await stopListener(request)
        case "/log":
            configuration.log(try request.string("message"))
            return .ok
        default:
            throw TestServerError.notFound(
                "\(route) is not an endpoint of the test-kit protocol version \(spokenVersion)")
        }
    }

    /// `GET /`: the protocol's `ServerInfo`.
    func info() -> JSONValue {
        #if os(Linux)
            let system = "Linux"
        #elseif os(macOS)
            let system = "macOS"
        #else
            let system = "unknown"
        #endif
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return .object([
            "version": .string(QuireVersion.current),
            "apiVersion": .int(Int64(spokenVersion)),
            "cbl": .string(configuration.reportedVariant),
            "device": .object([
                "systemName": .string(system),
                "systemVersion": .string("\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"),
                "model": .string(ProcessInfo.processInfo.hostName),
            ]),
            "additionalInfo": .string(
                "Quire \(QuireVersion.current): CouchDB-protocol replication, no multipeer, no TLS"),
        ])
    }

    /// `/newSession`: forgets everything of the previous session and accepts `id` from now on;
    /// the current session's own ID is refused.
    func newSession(_ request: RequestObject) async throws -> TestServerResponse {
        let id = try request.string("id")
        guard !id.isEmpty else { throw TestServerError.request("'id' is empty") }
        // A session is new: its own ID again is refused, as Couchbase Lite C's test server does.
        guard id != sessionID else { throw TestServerError.request("Session with ID '\(id)' already exists") }
        if spokenVersion == 1 {
            // Version 1 servers load datasets of a given version and insist on being told it.
            _ = try request.string("dataset_version")
        }
        if let logging = try request.optionalObject("logging") {
            let url = try logging.string("url")
            let tag = try logging.string("tag")
            configuration.log("session \(id) asks for logs at \(url) (tag \(tag)); this server logs to its own output")
        }
        try await clear()
        sessionID = id
        configuration.log("new session \(id)")
        return .ok
    }

    /// `/reset`: deletes every database and creates the ones asked for.
    func reset(_ request: RequestObject) async throws -> TestServerResponse {
        try await clear()
        if let test = try request.optionalString("test") { configuration.log(">>>>>>>>>> \(test) <<<<<<<<<<") }
        guard let value = request.value("databases") else { return .ok }
        guard case .object(let specs) = value else {
            throw TestServerError.request("'databases' must be an object or null")
        }
        for name in specs.keys.sorted() {
            try Self.validateDatabaseName(name)
            let spec: RequestObject
            switch specs[name] ?? .null {
            case .null: spec = RequestObject([:], place: "databases.\(name)")
            case .object(let members): spec = RequestObject(members.dictionary, place: "databases.\(name)")
            default: throw TestServerError.request("'databases.\(name)' must be an object or null")
            }
            if let unknown = spec.members.keys.first(where: { $0 != "collections" && $0 != "dataset" }) {
                throw TestServerError.request(
                    "'databases.\(name)' has '\(unknown)'; it may have 'collections' or 'dataset'")
            }
            let collections = try spec.optionalStrings("collections")
            let dataset = try spec.optionalString("dataset")
            if collections != nil, dataset != nil {
                throw TestServerError.request("'databases.\(name)' cannot have both 'collections' and 'dataset'")
            }
            if let collections, collections.isEmpty {
                throw TestServerError.request(
                    "'databases.\(name).collections' is empty; give null or at least one name")
            }
            let paths = try (collections ?? []).map(CollectionPath.init)
            if let dataset { _ = try catalog.datasetFolder(dataset) }
            let database = try Database(
                name: name, config: DatabaseConfiguration(directory: configuration.directory.path))
            databases[name] = database
            for path in paths { _ = try database.createCollection(name: path.collection, scope: path.scope) }
            if let dataset {
                // Batches of 500 saves hold the writer: on a store thread, not the pool's.
                try await DatabaseWork.shared.write { [catalog] in try catalog.load(dataset, into: database) }
            }
        }
        return .ok
    }

    /// A database name must be a file name.
    static func validateDatabaseName(_ name: String) throws {
        guard !name.isEmpty else { throw TestServerError.request("a database name cannot be empty") }
        guard name != ".", name != "..", !name.contains("/"), !name.contains("\\"), !name.contains("\0") else {
            throw TestServerError.request("'\(name)' cannot be a database name: it must be a file name")
        }
    }

    /// Stops replicators and listeners and deletes every database and snapshot.
    func clear() async throws {
        await configuration.stepHost?.end()
        for record in replicators.values { record.replicator?.stop() }
        replicators.removeAll()
        for listener in listeners.values { await listener.stop() }
        listeners.removeAll()
        snapshots.removeAll()
        let open = databases
        databases.removeAll()
        for database in open.values { try database.delete() }
        let manager = FileManager.default
        if manager.fileExists(atPath: configuration.directory.path) {
            // Only database folders: the directory may hold other files.
            for entry in try manager.contentsOfDirectory(atPath: configuration.directory.path)
            where entry.hasSuffix(".quire") {
                try manager.removeItem(at: configuration.directory.appendingPathComponent(entry))
            }
        }
    }

    /// The database `name`, or a 400 naming it.
    func database(_ request: RequestObject) throws -> (name: String, database: Database) {
        let name = try request.string("database")
        guard let database = databases[name] else {
            throw TestServerError.request(
                "database '\(name)' not found; /reset created \(databases.isEmpty ? "none" : databases.keys.sorted().joined(separator: ", "))"
            )
        }
        return (name, database)
    }

    /// Stops everything and deletes the databases; the server is done.
    public func shutdown() async {
        try? await clear()
        try? FileManager.default.removeItem(at: configuration.directory)
    }
}
