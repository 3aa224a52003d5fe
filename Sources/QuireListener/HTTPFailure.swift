import Hummingbird
import Quire
import QuireSync

/// A request that fails: an HTTP status and CouchDB's `{"error": ..., "reason": ...}` body.
struct HTTPFailure: Error, Sendable {
    /// The status to answer with.
    var status: HTTPResponse.Status
    /// CouchDB's short error name (`not_found`, `conflict`, `bad_request` ...).
    var error: String
    /// What was wrong, for people.
    var reason: String
    /// Extra response headers (`WWW-Authenticate`, `Allow`).
    var headers: HTTPFields = [:]

    static func badRequest(_ reason: String) -> HTTPFailure {
        HTTPFailure(status: .badRequest, error: "bad_request", reason: reason)
    }

    static func notFound(_ reason: String = "missing") -> HTTPFailure {
        HTTPFailure(status: .notFound, error: "not_found", reason: reason)
    }

    static let conflict = HTTPFailure(status: .conflict, error: "conflict", reason: "Document update conflict.")

    static let unauthorized = HTTPFailure(
        status: .unauthorized, error: "unauthorized", reason: "Name or password is incorrect.",
        headers: [.wwwAuthenticate: "Basic realm=\"Quire\""])

    static let readOnly = HTTPFailure(
        status: .forbidden, error: "forbidden", reason: "This listener is read-only: it accepts no writes.")

    static func tooLarge(limit: Int) -> HTTPFailure {
        HTTPFailure(
            status: .contentTooLarge, error: "too_large", reason: "The request body is larger than \(limit) bytes.")
    }

    /// 503 with `Retry-After`: the response budget stayed full for as long as a response
    /// may wait for room.
    static func responseBudgetFull(retryAfter seconds: Int) -> HTTPFailure {
        HTTPFailure(
            status: .serviceUnavailable, error: "unavailable",
            reason: "The server is writing as many large responses as it holds at once; retry later.",
            headers: [.retryAfter: String(max(1, seconds))])
    }

    static func methodNotAllowed(_ allowed: [HTTPRequest.Method]) -> HTTPFailure {
        let list = allowed.map(\.rawValue).joined(separator: ",")
        return HTTPFailure(
            status: .methodNotAllowed, error: "method_not_allowed", reason: "Only \(list) allowed",
            headers: [.allow: list])
    }

    /// The failure for a store error: its code picks the status, its message is the reason.
    init(_ error: QuireError) {
        switch error.code {
        case .notFound:
            self.init(status: .notFound, error: "not_found", reason: error.message)
        case .conflict:
            self.init(status: .conflict, error: "conflict", reason: "Document update conflict.")
        case .badDocID:
            self.init(status: .badRequest, error: "illegal_docid", reason: error.message)
        case .corruptRevisionData:
            self.init(status: .badRequest, error: "doc_validation", reason: error.message)
        case .badRevisionID, .invalidParameter, .corruptData, .invalidQueryParam:
            self.init(status: .badRequest, error: "bad_request", reason: error.message)
        case .notOpen:
            self.init(status: .serviceUnavailable, error: "unavailable", reason: error.message)
        case .busy:
            self.init(status: .serviceUnavailable, error: "unavailable", reason: error.message)
        default:
            self.init(status: .internalServerError, error: "internal_server_error", reason: error.message)
        }
    }

    init(status: HTTPResponse.Status, error: String, reason: String, headers: HTTPFields = [:]) {
        self.status = status
        self.error = error
        self.reason = reason
        self.headers = headers
    }

    /// Any error as a failure; errors that are neither failures nor store errors are 500s.
    static func from(_ error: any Error) -> HTTPFailure {
        switch error {
        case let failure as HTTPFailure: return failure
        case let quire as QuireError: return HTTPFailure(quire)
        default:
            return HTTPFailure(status: .internalServerError, error: "internal_server_error", reason: "\(error)")
        }
    }

    /// The JSON body.
    var json: JSONValue {
        .object(["error": .string(error), "reason": .string(reason)])
    }
}
