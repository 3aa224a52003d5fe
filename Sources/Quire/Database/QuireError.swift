import Foundation

/// The one error type Quire throws.
///
/// Codes follow Couchbase Lite's numbering so that code written against its error codes
/// ports with few changes. SQLite and POSIX failures keep their own number in
/// ``underlyingCode`` (and, for SQLite, the extended result code in ``extendedCode``), while
/// ``code`` maps them onto the closest Couchbase Lite code.
public struct QuireError: Error, CustomNSError, CustomStringConvertible, Sendable, Equatable {
    /// Where an error comes from.
    public enum Domain: String, Sendable, Equatable {
        /// Quire's own rules (names, documents, queries, lifecycle).
        case quire = "Quire"
        /// A failure reported by SQLite.
        case sqlite = "SQLite"
        /// A failure reported by the operating system (`errno`).
        case posix = "POSIX"
        /// A failure talking to a remote peer.
        case network = "Network"
    }

    /// Error codes with Couchbase Lite's names and numbers.
    public enum Code: Int, Sendable, Equatable, CaseIterable {
        /// An internal consistency check failed.
        case assertionFailed = 1
        /// The operation is not implemented.
        case unimplemented = 2
        /// The database is encrypted in a way Quire cannot open.
        case unsupportedEncryption = 3
        /// A revision ID is malformed.
        case badRevisionID = 4
        /// A document body is not acceptable, such as a reserved key (`_id`, `_rev`, `_deleted`) at its top level.
        case corruptRevisionData = 5
        /// The database, scope or collection is closed or deleted.
        case notOpen = 6
        /// The document, database, index or other named thing does not exist.
        case notFound = 7
        /// A save or delete lost to a concurrent change of the same document.
        case conflict = 8
        /// An argument is not valid, such as a scope or collection name breaking the naming rules.
        case invalidParameter = 9
        /// An error without a more precise code.
        case unexpectedError = 10
        /// A database file cannot be opened.
        case cantOpenFile = 11
        /// Reading or writing a file failed.
        case ioError = 12
        /// Memory ran out.
        case memoryError = 13
        /// The database or file is read-only.
        case notWriteable = 14
        /// Stored data is damaged, such as a blob whose bytes do not match its digest.
        case corruptData = 15
        /// The database is in use in a way that prevents the operation; try again later.
        case busy = 16
        /// The operation needs a transaction and none is open.
        case notInTransaction = 17
        /// A transaction is still open where none may be, such as closing from inside a batch.
        case transactionNotClosed = 18
        /// The operation is not supported here.
        case unsupported = 19
        /// The file is not a database, or not one Quire can read.
        case unreadableDatabase = 20
        /// Data is in the wrong format.
        case wrongFormat = 21
        /// A cryptographic operation failed.
        case crypto = 22
        /// A query cannot be parsed or compiled; the message gives the position and what was expected.
        case invalidQuery = 23
        /// The query needs an index that does not exist.
        case missingIndex = 24
        /// A query parameter is missing or of the wrong type.
        case invalidQueryParam = 25
        /// The remote peer reported an error.
        case remoteError = 26
        /// The database's format is older than this version of Quire can upgrade.
        case databaseTooOld = 27
        /// The database was written by a newer version of Quire.
        case databaseTooNew = 28
        /// A document ID is not valid.
        case badDocID = 29
        /// The database's format cannot be upgraded.
        case cantUpgradeDatabase = 30
        /// A network operation failed (the first of the network codes).
        case networkError = 5000
        /// The host name could not be resolved.
        case dnsFailure = 5001
        /// The host is unknown.
        case unknownHost = 5002
        /// A network request timed out.
        case timeout = 5003
        /// A URL is not valid.
        case invalidURL = 5004
        /// An HTTP request was redirected too many times.
        case tooManyRedirects = 5005
        /// The TLS handshake failed.
        case tlsHandshakeFailed = 5006
        /// The peer's TLS certificate has expired.
        case tlsCertExpired = 5007
        /// The peer's TLS certificate is not trusted.
        case tlsCertUntrusted = 5008
        /// The peer requires a TLS client certificate.
        case tlsClientCertRequired = 5009
        /// The peer rejected the TLS client certificate.
        case tlsClientCertRejected = 5010
        /// The peer's TLS certificate has an unknown root.
        case tlsCertUnknownRoot = 5011
        /// An HTTP redirect was not valid.
        case invalidRedirect = 5012
        /// The base of the HTTP status codes: `httpBase + status` is an HTTP error status.
        case httpBase = 10000
        /// HTTP 401: authentication is required.
        case httpAuthRequired = 10401
        /// HTTP 403: the request is forbidden.
        case httpForbidden = 10403
        /// HTTP 404: not found.
        case httpNotFound = 10404
        /// HTTP 409: conflict.
        case httpConflict = 10409
        /// HTTP 407: the proxy requires authentication.
        case httpProxyAuthRequired = 10407
        /// HTTP 413: the request body is too large.
        case httpEntityTooLarge = 10413
        /// HTTP 418.
        case httpImATeapot = 10418
        /// HTTP 500: the server failed.
        case httpInternalServerError = 10500
        /// HTTP 501: not implemented by the server.
        case httpNotImplemented = 10501
        /// HTTP 503: the server is unavailable for now.
        case httpServiceUnavailable = 10503
        /// JSON text given to a document, dictionary or array is not valid JSON, or not the
        /// kind of value it must be (an object, an array); the message gives the byte offset.
        /// Couchbase Lite's `invalidJSON`, the Fleece parser's code.
        case invalidJSON = 17001
        /// A document or query result does not decode as the `Decodable` type asked for: a
        /// property is missing or holds another kind of value; the message names the key path.
        case decodingError = 18001
        /// A value cannot be encoded as a document, such as raw `Data` (use a ``Blob``), a
        /// non-finite number or a top level that is not keyed; the message names the key path.
        case encodingError = 18002

        /// The code's name as written in spec files and reports (`invalidParameter`).
        package var name: String { String(describing: self) }

        /// Finds a code by its name (`"notFound"`), or nil.
        package init?(name: String) {
            guard let found = Code.allCases.first(where: { $0.name == name }) else { return nil }
            self = found
        }
    }

    /// Where the error comes from.
    public var domain: Domain
    /// The Couchbase-Lite-numbered code.
    public var code: Code
    /// What was wrong, naming the value at fault.
    public var message: String
    /// The SQLite primary result code or the POSIX `errno`, when the error came from there.
    public var underlyingCode: Int32?
    /// SQLite's extended result code, when the error came from SQLite.
    public var extendedCode: Int32?
    /// The SQL statement that failed, when there was one.
    public var statement: String?

    /// An error of `code` in `domain` with `message`; the SQLite or POSIX number, the extended
    /// SQLite code and the statement at fault when there are some.
    public init(
        _ code: Code,
        _ message: String,
        domain: Domain = .quire,
        underlyingCode: Int32? = nil,
        extendedCode: Int32? = nil,
        statement: String? = nil
    ) {
        self.domain = domain
        self.code = code
        self.message = message
        self.underlyingCode = underlyingCode
        self.extendedCode = extendedCode
        self.statement = statement
    }

    /// A POSIX error carrying `errno`, mapped to the nearest Couchbase Lite code.
    package static func posix(_ errno: Int32, _ message: String) -> QuireError {
        let code: Code
        switch errno {
        case ENOENT: code = .notFound
        case EEXIST: code = .conflict
        case EACCES, EPERM, EROFS: code = .notWriteable
        case ENOSPC, EIO: code = .ioError
        case EBUSY: code = .busy
        default: code = .unexpectedError
        }
        return QuireError(code, message, domain: .posix, underlyingCode: errno)
    }

    // MARK: CustomNSError

    /// The error domain string for `NSError` bridging.
    public static var errorDomain: String { "Quire" }

    /// The number used when bridged to `NSError`: the POSIX or SQLite number for those
    /// domains, the Couchbase Lite code otherwise.
    public var errorCode: Int {
        switch domain {
        case .posix, .sqlite: return Int(underlyingCode ?? Int32(code.rawValue))
        case .quire, .network: return code.rawValue
        }
    }

    /// Bridged user info: the message as the localized description.
    public var errorUserInfo: [String: Any] {
        [NSLocalizedDescriptionKey: description]
    }

    // MARK: CustomStringConvertible

    /// `"<domain> <code>: <message>"`, with SQLite's codes and statement when present.
    public var description: String {
        var text = "\(domain.rawValue) \(code.name) (\(code.rawValue)): \(message)"
        if let underlyingCode {
            text += " [\(domain == .posix ? "errno" : "code") \(underlyingCode)"
            if let extendedCode { text += ", extended \(extendedCode)" }
            text += "]"
        }
        if let statement { text += " in: \(statement)" }
        return text
    }
}
