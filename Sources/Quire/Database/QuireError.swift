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
        case assertionFailed = 1
        case unimplemented = 2
        case unsupportedEncryption = 3
        case badRevisionID = 4
        case corruptRevisionData = 5
        case notOpen = 6
        case notFound = 7
        case conflict = 8
        case invalidParameter = 9
        case unexpectedError = 10
        case cantOpenFile = 11
        case ioError = 12
        case memoryError = 13
        case notWriteable = 14
        case corruptData = 15
        case busy = 16
        case notInTransaction = 17
        case transactionNotClosed = 18
        case unsupported = 19
        case unreadableDatabase = 20
        case wrongFormat = 21
        case crypto = 22
        case invalidQuery = 23
        case missingIndex = 24
        case invalidQueryParam = 25
        case remoteError = 26
        case databaseTooOld = 27
        case databaseTooNew = 28
        case badDocID = 29
        case cantUpgradeDatabase = 30
        case networkError = 5000
        case dnsFailure = 5001
        case unknownHost = 5002
        case timeout = 5003
        case invalidURL = 5004
        case tooManyRedirects = 5005
        case tlsHandshakeFailed = 5006
        case tlsCertExpired = 5007
        case tlsCertUntrusted = 5008
        case tlsClientCertRequired = 5009
        case tlsClientCertRejected = 5010
        case tlsCertUnknownRoot = 5011
        case invalidRedirect = 5012
        case httpBase = 10000
        case httpAuthRequired = 10401
        case httpForbidden = 10403
        case httpNotFound = 10404
        case httpConflict = 10409
        case httpProxyAuthRequired = 10407
        case httpEntityTooLarge = 10413
        case httpImATeapot = 10418
        case httpInternalServerError = 10500
        case httpNotImplemented = 10501
        case httpServiceUnavailable = 10503

        /// The code's name as written in spec files and reports (`invalidParameter`).
        public var name: String { String(describing: self) }

        /// Finds a code by its name (`"notFound"`), or nil.
        public init?(name: String) {
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

    /// Makes an error.
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
    public static func posix(_ errno: Int32, _ message: String) -> QuireError {
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
