import Foundation
import Quire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A small HTTP client over URLSession for talking to a listener the way a CouchDB client
/// would; every request has a timeout so no test can hang.
struct TestHTTPClient: Sendable {
    /// A response: status, headers and body.
    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        /// The body parsed as JSON (`.null` when it is not JSON).
        var json: JSONValue { (try? JSONReader.parse(body)) ?? .null }
        /// The body as text.
        var text: String { String(decoding: body, as: UTF8.self) }

        /// A header, by case-insensitive name.
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    /// A session whose delegate lets 401 responses through: with no delegate, FoundationNetworking
    /// waits on a Basic challenge instead of delivering the response.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCredentialStorage = nil
        return URLSession(configuration: configuration)
    }()

    let baseURL: URL
    var credentials: (user: String, password: String)?

    init(baseURL: URL, credentials: (user: String, password: String)? = nil) {
        self.baseURL = baseURL
        self.credentials = credentials
    }

    /// A client sending Basic credentials.
    func authenticated(_ user: String, _ password: String) -> TestHTTPClient {
        TestHTTPClient(baseURL: baseURL, credentials: (user, password))
    }

    /// Sends `method` to `path` (which may carry a query) with raw body bytes.
    func send(
        _ method: String, _ path: String, bytes: Data? = nil, headers: [String: String] = [:],
        timeout: TimeInterval = 60
    ) async throws -> Reply {
        guard let url = URL(string: baseURL.absoluteString + path) else {
            throw QuireError(.invalidURL, "bad test URL path \(path)")
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = bytes
        if bytes != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let credentials {
            let token = Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
            request.setValue("Basic \(token)", forHTTPHeaderField: "Authorization")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await TestHTTPClient.session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw QuireError(.networkError, "not an HTTP response")
        }
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key] = value }
        }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    /// Sends a JSON body.
    func send(
        _ method: String, _ path: String, json: JSONValue, headers: [String: String] = [:], timeout: TimeInterval = 60
    ) async throws -> Reply {
        try await send(method, path, bytes: Data(try JSONWriter.bytes(json)), headers: headers, timeout: timeout)
    }

    func get(_ path: String, timeout: TimeInterval = 60) async throws -> Reply {
        try await send("GET", path, timeout: timeout)
    }

    func post(_ path: String, _ json: JSONValue) async throws -> Reply {
        try await send("POST", path, json: json)
    }

    func put(_ path: String, _ json: JSONValue) async throws -> Reply {
        try await send("PUT", path, json: json)
    }
}
