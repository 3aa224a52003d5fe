import Foundation
import Quire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One remote keyspace (a database, or `db.scope.collection`) spoken to over the CouchDB
/// replication protocol: the requests, their status handling, and the first parse of each
/// response into checked values.
struct RemoteDatabase: Sendable {
    /// The keyspace URL.
    let url: NormalizedURL
    let transport: HTTPTransport
    /// Authentication and custom headers sent with every request.
    let headers: [String: String]
    let requestTimeout: TimeInterval

    // MARK: Requests

    /// Sends a request to `<keyspace>/<path>`; `path` is already percent-encoded.
    func send(
        _ method: String, _ path: String = "", query: [(String, String)] = [], body: JSONValue? = nil,
        timeout: TimeInterval? = nil
    ) async throws -> RemoteResponse {
        let request = try makeRequest(method, path, query: query, body: body, timeout: timeout)
        return try await transport.send(request)
    }

    func makeRequest(
        _ method: String, _ path: String, query: [(String, String)], body: JSONValue?, timeout: TimeInterval?
    ) throws -> URLRequest {
        var text = url.description + (path.isEmpty ? "" : "/" + path)
        if !query.isEmpty {
            text +=
                "?"
                + query.map { "\(RemoteDatabase.encode($0.0))=\(RemoteDatabase.encode($0.1))" }.joined(separator: "&")
        }
        guard let target = URL(string: text) else {
            throw QuireError(.invalidURL, "cannot form a request URL from '\(text)'", domain: .network)
        }
        var request = URLRequest(url: target, timeoutInterval: timeout ?? requestTimeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = Data(try WireJSON.bytes(body, sortedKeys: true))
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters, so document IDs with
    /// `/`, `?`, `+` or spaces stay one path segment or one query value.
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// An error for an HTTP failure status, or nil for 2xx.
    func statusError(_ response: RemoteResponse, _ what: String) -> QuireError? {
        guard !(200..<300).contains(response.status) else { return nil }
        let code: QuireError.Code
        switch response.status {
        case 401: code = .httpAuthRequired
        case 403: code = .httpForbidden
        case 404: code = .httpNotFound
        case 407: code = .httpProxyAuthRequired
        case 409: code = .httpConflict
        case 413: code = .httpEntityTooLarge
        case 500: code = .httpInternalServerError
        case 501: code = .httpNotImplemented
        case 503: code = .httpServiceUnavailable
        default: code = .httpBase
        }
        var reason = ""
        if let object = try? JSONReader.parse(response.body).objectMembers {
            let parts = [object["error"]?.stringValue, object["reason"]?.stringValue].compactMap { $0 }
            if !parts.isEmpty { reason = ": " + parts.joined(separator: ", ").prefix(300) }
        }
        return QuireError(
            code, "\(what) at \(url) failed with HTTP \(response.status)\(reason)", domain: .network,
            underlyingCode: Int32(clamping: response.status))
    }

    /// The parsed body of a successful response; an error for a failure status or a body
    /// that is not JSON.
    func checked(_ response: RemoteResponse, _ what: String) throws -> JSONValue {
        if let error = statusError(response, what) { throw error }
        return try PeerResponse.parse(response.body, context: "\(what) response from \(url)")
    }

    /// Like ``checked(_:_:)``, for a body that must be a JSON object.
    func checkedObject(_ response: RemoteResponse, _ what: String) throws -> JSONObject {
        let body = try checked(response, what)
        guard let object = body.objectMembers else {
            throw PeerResponse.malformed(
                "\(what) response from \(url)", "the body is \(PeerResponse.describe(body)), expected an object")
        }
        return object
    }

    // MARK: Protocol steps

    /// `GET /{db}`: the database exists and answers. With `creating`, a database that does not
    /// exist (404) is created with `PUT /{db}` first (412 from a peer that created it
    /// meanwhile is fine).
    func info(creating: Bool = false) async throws -> JSONObject {
        let response = try await send("GET")
        guard creating, response.status == 404 else { return try checkedObject(response, "GET database") }
        let created = try await send("PUT")
        if created.status != 412 { _ = try checked(created, "PUT database") }
        return try checkedObject(try await send("GET"), "GET database")
    }

    /// `GET /{db}/_local/{id}`; nil on 404.
    func localDocument(id: String) async throws -> JSONObject? {
        let response = try await send("GET", "_local/" + RemoteDatabase.encode(id))
        if response.status == 404 { return nil }
        return try checkedObject(response, "GET _local/\(id)")
    }

    /// `PUT /{db}/_local/{id}`; returns the new `_rev` when the peer tells it.
    func putLocalDocument(id: String, body: JSONObject) async throws -> String? {
        let response = try await send("PUT", "_local/" + RemoteDatabase.encode(id), body: .object(body))
        return try checkedObject(response, "PUT _local/\(id)")["rev"]?.stringValue
    }
}
