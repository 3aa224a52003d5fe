import Foundation
import Quire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests of the Couchbase Lite test kit's REST API (version 2) to one test server,
/// from the caller's thread, and turns the protocol's error objects into ``EngineError``s.
final class TestKitClient: @unchecked Sendable {
    /// How long one request may take (a dataset reset can take a while on a device).
    static let timeout: TimeInterval = 120

    /// The server's base URL (`http://host:port`).
    let base: URL
    /// The client ID introduced with `/newSession`.
    let clientID = UUID().uuidString.lowercased()
    private let session: URLSession

    init(base: URL) {
        self.base = base
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.timeout
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

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
        request.setValue("2", forHTTPHeaderField: "CBLTest-API-Version")
        request.setValue(clientID, forHTTPHeaderField: "CBLTest-Client-ID")
        guard let result = SynchronousDataTask.run(request, in: session, guardTimeout: Self.timeout * 2) else {
            throw EngineError(domain: "Network", code: "timeout", message: "POST \(url.absoluteString) got no answer")
        }
        let (data, status): (Data, Int)
        do {
            (data, status) = try result.get()
        } catch {
            throw EngineError(
                domain: "Network", code: "networkError",
                message: "POST \(url.absoluteString) failed: \(error.localizedDescription)")
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
        default: return EngineError(domain: "TestKit", code: "\(code)", message: "\(domain) \(code): \(message)")
        }
    }
}
