import Foundation
import Quire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests of the Couchbase Lite test kit's REST API to one test server, from the
/// caller's thread, and turns the protocol's error objects into ``EngineError``s.
///
/// It speaks version 2 (the .NET server, `quire testserver`) or version 1 (the C, iOS, Android
/// and Java servers), whichever `GET /` names as `apiVersion` (``connect()``). Version 1 wants
/// the header value `1` and a `dataset_version` in `/newSession` and `/reset`, and answers a
/// missing document with `400 TESTSERVER "Document '…' not found"`, which reads here as the
/// 404 of version 2.
// @unchecked: `session` is thread-safe, and the version is behind a lock.
final class TestKitClient: @unchecked Sendable {
    /// How long one request may take (a dataset reset can take a while on a device).
    static let timeout: TimeInterval = 120

    /// The server's base URL (`http://host:port`).
    let base: URL
    /// The client ID introduced with `/newSession`.
    let clientID = UUID().uuidString.lowercased()
    private let session: URLSession
    private let version = Locked(2)
    private let information = Locked([String: String]())

    /// The protocol versions this client speaks.
    static let supportedVersions = [1, 2]
    /// The dataset version a version 1 server is told (`dataset_version`): Couchbase Lite 4.0's
    /// datasets, the layout its test servers ship.
    static let datasetVersion = "4.0"

    /// The protocol version in use: 2 until ``connect()`` reads the server's.
    var apiVersion: Int { version.withLock { $0 } }

    init(base: URL) {
        self.base = base
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.timeout
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Reads the server's version from `GET /` and introduces this client with `/newSession`.
    ///
    /// - Throws: ``EngineError`` when the server answers no version this client speaks.
    func connect() throws {
        let answer = try get("/")
        var spoken = 2
        if case .object(let members)? = answer {
            switch members["apiVersion"] {
            case .int(let number)?: spoken = Int(number)
            case .double(let number)?: spoken = Int(number)
            case .string(let text)?: spoken = Int(text) ?? -1
            default: break
            }
        }
        guard Self.supportedVersions.contains(spoken) else {
            throw EngineError(
                domain: "TestKit", code: "unsupportedVersion",
                message:
                    "the test server at \(base.absoluteString) speaks API version \(spoken); this engine speaks 1 and 2"
            )
        }
        version.withLock { $0 = spoken }
        information.withLock { $0 = Self.properties(of: answer, version: spoken) }
        try post("/newSession", versioned(["id": .string(clientID)]))
    }

    /// What `GET /` said of the server, for reports (empty before ``connect()``).
    var serverProperties: [String: String] { information.withLock { $0 } }

    /// `GET /`'s answer as report properties.
    static func properties(of answer: JSONValue?, version: Int) -> [String: String] {
        guard case .object(let members)? = answer else { return ["server.apiVersion": "\(version)"] }
        func text(_ value: JSONValue?) -> String? {
            switch value {
            case .string(let text)?: return text
            case .int(let number)?: return "\(number)"
            case .double(let number)?: return "\(number)"
            default: return nil
            }
        }
        var properties = ["server.apiVersion": "\(version)"]
        properties["server"] = text(members["cbl"])
        properties["server.version"] = text(members["version"])
        properties["server.additionalInfo"] = text(members["additionalInfo"])
        if case .object(let device)? = members["device"] {
            properties["server.platform"] = [device["systemName"], device["systemVersion"], device["model"]]
                .compactMap(text).joined(separator: " ")
        }
        return properties
    }

    /// A `/newSession` or `/reset` body for the version in use: version 1 adds `dataset_version`.
    func versioned(_ members: [String: JSONValue]) -> JSONValue {
        var members = members
        if apiVersion == 1 { members["dataset_version"] = .string(Self.datasetVersion) }
        return .object(members)
    }

    /// `GET path` (only `/` is read this way); returns the answer's JSON.
    func get(_ path: String) throws -> JSONValue? {
        var request = URLRequest(
            url: base.appendingPathComponent(String(path.dropFirst())), timeoutInterval: Self.timeout)
        request.httpMethod = "GET"
        return try send(request, path: path)
    }

    /// POSTs `body` to `path`; returns the answer's JSON (nil for an empty 200).
    ///
    /// - Throws: ``EngineError`` in the domain the server's error object names (`CBL` errors
    ///   become `Quire` with the code's name), or a `Network` error when there is no answer.
    @discardableResult
    func post(_ path: String, _ body: JSONValue) throws -> JSONValue? {
        let url = base.appendingPathComponent(String(path.dropFirst()))
        var request = URLRequest(url: url, timeoutInterval: Self.timeout)
        request.httpMethod = "POST"
        request.httpBody = Data(try JSONWriter.bytes(body))
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(String(apiVersion), forHTTPHeaderField: "CBLTest-API-Version")
        request.setValue(clientID, forHTTPHeaderField: "CBLTest-Client-ID")
        return try send(request, path: path)
    }

    private func send(_ request: URLRequest, path: String) throws -> JSONValue? {
        let url = request.url ?? base
        let method = request.httpMethod ?? "POST"
        guard let result = SynchronousDataTask.run(request, in: session, guardTimeout: Self.timeout * 2) else {
            throw EngineError(
                domain: "Network", code: "timeout", message: "\(method) \(url.absoluteString) got no answer")
        }
        let (data, status): (Data, Int)
        do {
            (data, status) = try result.get()
        } catch {
            throw EngineError(
                domain: "Network", code: "networkError",
                message: "\(method) \(url.absoluteString) failed: \(error.localizedDescription)")
        }
        let json = data.isEmpty ? nil : try? JSONReader.parse(data)
        guard status == 200 else { throw Self.error(status: status, body: json, data: data, path: path) }
        return json
    }

    /// The protocol's error object as an engine error: `CBL` codes are Couchbase Lite's, which
    /// Quire's codes follow, so they read as `Quire` errors; `SQLITE` and `POSIX` keep their
    /// numbers; the server's own refusals (`TESTSERVER` ...) are `TestKit` errors.
    static func error(status: Int, body: JSONValue?, data: Data, path: String) -> EngineError {
        guard case .object(let members)? = body, case .string(let domain)? = members["domain"] else {
            return EngineError(
                domain: "TestKit", code: "\(status)",
                message: "\(path) answered \(status): \(String(decoding: data.prefix(500), as: UTF8.self))")
        }
        let code: Int
        switch members["code"] {
        case .int(let number)?: code = Int(number)
        case .double(let number)?: code = Int(number)
        default: code = status
        }
        let message: String
        if case .string(let text)? = members["message"] {
            message = text
        } else {
            message = "\(path) answered \(status)"
        }
        switch domain.uppercased() {
        case "CBL", "LITECORE":
            return EngineError(
                domain: QuireError.Domain.quire.rawValue, code: QuireError.Code(rawValue: code)?.name ?? "\(code)",
                message: message)
        case "SQLITE": return EngineError(domain: "SQLite", code: "\(code)", message: message)
        case "POSIX": return EngineError(domain: "POSIX", code: "\(code)", message: message)
        case "TESTSERVER" where isMissingDocument(message):
            // Version 1's answer for a document that is not there: the 404 of version 2.
            return EngineError(domain: "TestKit", code: "404", message: message)
        default: return EngineError(domain: "TestKit", code: "\(code)", message: "\(domain) \(code): \(message)")
        }
    }

    /// Whether a server's message is version 1's "Document '<scope.collection.id>' not found".
    static func isMissingDocument(_ message: String) -> Bool {
        message.hasPrefix("Document '") && message.hasSuffix("' not found")
    }
}
