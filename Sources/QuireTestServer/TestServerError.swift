import Quire

/// A failure answered to a test-kit client: an HTTP status and the protocol's error object
/// (`{"domain": "TESTSERVER" | "CBL" | "POSIX" | "SQLITE", "code": ..., "message": ...}`).
///
/// Request errors (a malformed body, an unknown database) are 400 with domain `TESTSERVER`
/// and code 400; a document that is not found is 404; a failure inside the database is 400
/// with the store's own domain and code, as Couchbase Lite's test servers report theirs;
/// anything else is 500.
public struct TestServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    public var status: Int
    /// `TESTSERVER`, `CBL`, `POSIX` or `SQLITE`.
    public var domain: String
    /// The code: the HTTP status for `TESTSERVER`, else the store's error code.
    public var code: Int
    /// What went wrong, naming the value.
    public var message: String

    /// An error with every field given.
    public init(status: Int, domain: String, code: Int, message: String) {
        self.status = status
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// A client request error (400, `TESTSERVER`).
    public static func request(_ message: String) -> TestServerError {
        TestServerError(status: 400, domain: "TESTSERVER", code: 400, message: message)
    }

    /// A document or resource that does not exist (404, `TESTSERVER`).
    public static func notFound(_ message: String) -> TestServerError {
        TestServerError(status: 404, domain: "TESTSERVER", code: 404, message: message)
    }

    /// A failure of the server itself (500, `TESTSERVER`).
    public static func server(_ message: String) -> TestServerError {
        TestServerError(status: 500, domain: "TESTSERVER", code: 500, message: message)
    }

    /// A store error as the protocol reports a Couchbase Lite error: 400, with `CBL`,
    /// `POSIX` or `SQLITE` and the store's code (network codes keep their 5000 offset).
    public static func store(_ error: QuireError) -> TestServerError {
        TestServerError(status: 400, domain: protocolDomain(error), code: protocolCode(error), message: error.message)
    }

    /// The protocol's domain for a store error.
    static func protocolDomain(_ error: QuireError) -> String {
        switch error.domain {
        case .quire, .network: return "CBL"
        case .sqlite: return "SQLITE"
        case .posix: return "POSIX"
        }
    }

    /// The protocol's code for a store error: the POSIX or SQLite number in those domains.
    static func protocolCode(_ error: QuireError) -> Int {
        switch error.domain {
        case .quire, .network: return error.code.rawValue
        case .sqlite, .posix: return error.underlyingCode.map(Int.init) ?? error.code.rawValue
        }
    }

    /// The error object of the protocol.
    package var body: JSONValue {
        .object(["domain": .string(domain), "code": .int(Int64(code)), "message": .string(message)])
    }

    /// `status domain/code: message`.
    public var description: String { "\(status) \(domain)/\(code): \(message)" }
}
