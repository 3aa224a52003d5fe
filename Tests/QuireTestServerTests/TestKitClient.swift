import Foundation
import Quire
import QuireTestServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A test-kit client for the tests: sends requests with the protocol's headers and checks
/// every request it sends and every response it gets against the schemas, and the response
/// headers, recording the problems and the endpoints it touched.
final class TestKitClient: @unchecked Sendable {
    /// A response.
    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data
        var json: JSONValue { (try? JSONReader.parse(body)) ?? .null }

        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// Each endpoint's request and 200-response definitions (nil: no body).
    static let definitions: [String: (request: String?, response: String?)] = [
        "/": (nil, "ServerInfo"),
        "/newSession": ("NewSessionRequest", nil),
        "/reset": ("ResetRequest", nil),
        "/getAllDocuments": ("CollectionsRequest", "CollectionDocuments"),
        "/getDocument": ("GetDocumentRequest", "Document"),
        "/updateDatabase": ("UpdateDatabaseRequest", nil),
        "/snapshotDocuments": ("SnapshotDocumentsRequest", "Identified"),
        "/verifyDocuments": ("VerifyDocumentsRequest", "VerifyDocumentsResponse"),
        "/runQuery": ("RunQueryRequest", "QueryResults"),
        "/performMaintenance": ("PerformMaintenanceRequest", nil),
        "/startReplicator": ("StartReplicatorRequest", "Identified"),
        "/getReplicatorStatus": ("Identified", "ReplicatorStatus"),
        "/stopReplicator": ("Identified", nil),
        "/startListener": ("StartListenerRequest", "StartListenerResponse"),
        "/stopListener": ("Identified", nil),
        "/log": ("LogRequest", nil),
    ]

    static let session: URLSession = URLSession(configuration: .ephemeral)

    let baseURL: String
    let schema: TestKitSchema
    var clientID = UUID().uuidString.lowercased()
    private let lock = NSLock()
    private var problems: [String] = []
    private var touched: Set<String> = []
    private var serverIDs: Set<String> = []

    init(port: UInt16, schema: TestKitSchema) {
        baseURL = "http://127.0.0.1:\(port)"
        self.schema = schema
    }

    /// Schema and header problems seen so far.
    var violations: [String] { lock.withLock { problems } }
    /// Endpoints answered with 200 so far.
    var successfulEndpoints: Set<String> { lock.withLock { touched } }
    /// The server IDs seen.
    var servers: Set<String> { lock.withLock { serverIDs } }

    private func note(_ problem: String) { lock.withLock { problems.append(problem) } }

    /// Sends a well-formed request: its body is checked against the endpoint's request schema.
    func post(_ path: String, _ body: JSONValue) async throws -> Reply {
        if let definition = Self.definitions[path]?.request {
            for violation in schema.violations(of: body, against: definition) { note("request \(path) \(violation)") }
        }
        return try await send("POST", path, body: Data(try JSONWriter.bytes(body)))
    }

    /// Sends a request the schema must reject (it is the point of the test): a request that
    /// passes the schema is a problem.
    func postMalformed(_ path: String, _ body: JSONValue) async throws -> Reply {
        if let definition = Self.definitions[path]?.request, schema.violations(of: body, against: definition).isEmpty {
            note("request \(path): the schema accepts a malformed request \(body)")
        }
        return try await send("POST", path, body: Data(try JSONWriter.bytes(body)))
    }

    /// Sends anything (malformed requests included); only the response is checked.
    func send(_ method: String, _ path: String, body: Data?, headers: [String: String]? = nil) async throws -> Reply {
        guard let url = URL(string: baseURL + path) else { throw QuireError(.invalidURL, "bad path \(path)") }
        var request = URLRequest(url: url, timeoutInterval: 60)
        request.httpMethod = method
        request.httpBody = body
        let sent = headers ?? [TestServerEngine.versionHeader: "2", TestServerEngine.clientHeader: clientID]
        for (name, value) in sent { request.setValue(value, forHTTPHeaderField: name) }
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        let (data, response) = try await Self.session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw QuireError(.networkError, "not an HTTP response") }
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key] = value }
        }
        let reply = Reply(status: http.statusCode, headers: fields, body: data)
        check(reply, path: path)
        return reply
    }

    private func check(_ reply: Reply, path: String) {
        if reply.header(TestServerEngine.versionHeader) != "2" {
            note(
                "\(path): response header \(TestServerEngine.versionHeader) is \(reply.header(TestServerEngine.versionHeader) ?? "missing")"
            )
        }
        if let server = reply.header(TestServerEngine.serverHeader), UUID(uuidString: server) != nil {
            lock.withLock { _ = serverIDs.insert(server) }
        } else {
            note("\(path): response header \(TestServerEngine.serverHeader) is not a UUID")
        }
        if reply.status == 200 {
            lock.withLock { _ = touched.insert(path) }
            guard let known = Self.definitions[path] else { return }
            if let definition = known.response {
                for violation in schema.violations(of: reply.json, against: definition) {
                    note("response \(path) \(violation)")
                }
            } else if !reply.body.isEmpty {
                note("response \(path): a body where the protocol has none")
            }
        } else {
            guard [400, 404, 500].contains(reply.status) else {
                note("\(path): status \(reply.status) is not one the protocol uses")
                return
            }
            for violation in schema.violations(of: reply.json, against: "Error") { note("error \(path) \(violation)") }
        }
    }
}
