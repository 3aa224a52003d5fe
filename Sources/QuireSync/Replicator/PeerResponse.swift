import Foundation
import Quire

/// Reading what a peer sent. The shared wire types check shapes and throw errors naming the
/// field; here those errors gain which response from which peer they are about, and become
/// ``QuireError/Code/remoteError``, so a hostile or broken peer ends a replication with a
/// message like `malformed _changes response from http://h:80/db: changes entry 'a' has no
/// 'seq'`.
enum PeerResponse {
    /// Parses a response body as JSON.
    static func parse(_ data: Data, context: String) throws -> JSONValue {
        try decode(context) { try WireJSON.parse(data) }
    }

    /// Runs `body`, turning its errors about the data into errors about the peer's
    /// response; failures of this machine (a POSIX or SQLite error) pass unchanged.
    static func decode<T>(_ context: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as QuireError where error.domain == .quire {
            throw malformed(context, error.message)
        }
    }

    /// An error about a malformed response.
    static func malformed(_ context: String, _ problem: String) -> QuireError {
        QuireError(.remoteError, "malformed \(context): \(problem)")
    }

    /// A short name for a JSON value's type, for messages.
    static func describe(_ value: JSONValue?) -> String {
        switch value {
        case .none: return "missing"
        case .some(.null): return "null"
        case .some(.bool): return "a boolean"
        case .some(.int), .some(.double): return "a number"
        case .some(.string): return "a string"
        case .some(.array): return "an array"
        case .some(.object): return "an object"
        }
    }
}
