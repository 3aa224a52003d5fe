import Foundation
import Quire

/// What a ``Replicator`` replicates, with whom, and how.
public struct ReplicatorConfiguration: Sendable {
    /// ``replicatorType``'s default: push and pull.
    public static let defaultType = ReplicatorType.pushAndPull
    /// ``continuous``'s default: one-shot.
    public static let defaultContinuous = false
    /// ``heartbeat``'s default, in seconds.
    public static let defaultHeartbeat: TimeInterval = 300
    /// ``maxAttempts``'s default for a one-shot replicator.
    public static let defaultMaxAttemptsSingleShot: UInt = 10
    /// ``maxAttempts``'s default for a continuous replicator: no limit.
    public static let defaultMaxAttemptsContinuous = UInt.max
    /// ``maxAttemptWaitTime``'s default, in seconds.
    public static let defaultMaxAttemptsWaitTime: TimeInterval = 300
    /// ``enableAutoPurge``'s default.
    public static let defaultEnableAutoPurge = true

    /// The remote database.
    public let target: Endpoint
    /// Push, pull, or both (the default).
    public var replicatorType: ReplicatorType = defaultType
    /// Whether the replicator keeps running and replicates changes as they happen; a one-shot
    /// replicator (the default) stops when both sides are caught up.
    public var continuous = defaultContinuous
    /// Credentials for the remote, if it wants any.
    public var authenticator: Authenticator?
    /// Extra HTTP headers sent with every request.
    public var headers: [String: String]?
    /// How long, in seconds, a continuous replicator's long-poll request for remote changes
    /// may stay open; the server is asked for a newline this often to keep it alive.
    /// Default 300, as Couchbase Lite's heartbeat; 0 means the default. A negative value
    /// stops the replicator at ``Replicator/start()`` with `QuireError.Code.invalidParameter`.
    public var heartbeat: TimeInterval = defaultHeartbeat
    /// How many times to try in all before a network failure stops the replicator: unless
    /// set, ``defaultMaxAttemptsSingleShot`` for a one-shot replicator and
    /// ``defaultMaxAttemptsContinuous`` (no limit) for a continuous one; setting 0 goes back
    /// to that default. 1 tries once and never goes offline.
    public var maxAttempts: UInt {
        get {
            chosenMaxAttempts ?? (continuous ? Self.defaultMaxAttemptsContinuous : Self.defaultMaxAttemptsSingleShot)
        }
        set { chosenMaxAttempts = newValue == 0 ? nil : newValue }
    }
    private var chosenMaxAttempts: UInt?
    /// The longest wait, in seconds, between two attempts; 0 means the default, 300. Waits
    /// double from one second up to this. A negative value stops the replicator at
    /// ``Replicator/start()`` with `QuireError.Code.invalidParameter`.
    public var maxAttemptWaitTime: TimeInterval = defaultMaxAttemptsWaitTime
    /// Whether a document the remote says the user lost access to (`_removed`) is purged
    /// locally. Default true.
    public var enableAutoPurge = defaultEnableAutoPurge
    /// Whether a push creates a remote database (or `db.scope.collection` keyspace) that does
    /// not exist, with `PUT`, as CouchDB's `create_target` does; false by default, as in
    /// Couchbase Lite, where a missing remote database stops the replicator with a 404. The
    /// server must allow it (`quire serve FOLDER --create-databases`).
    public var createsMissingTarget = false
    /// How long, in seconds, one request may go without an answer. Default 60.
    public var requestTimeout: TimeInterval = 60
    #if TLS
        /// The certificate an `https` (or `wss`) remote must present, as DER bytes or PEM
        /// text; the remote's leaf certificate must be this one, or the chain it presents
        /// must lead from its leaf, each certificate signed by the next, to this one (a
        /// pinned CA); neither roots nor the host name are checked, so a self-signed certificate (a
        /// QuireListener's `URLEndpointListener.tlsIdentity`) can be trusted. A
        /// different certificate stops the replicator with
        /// `QuireError.Code.tlsCertUnknownRoot`, as in Couchbase Lite. Nil (the default)
        /// checks the chain to a trusted root and the host name. Present with the package's
        /// `TLS` trait (on by default).
        public var pinnedServerCertificate: Data?
        /// Like ``pinnedServerCertificate``, the pinned certificate given by the SHA-256 of
        /// its DER bytes in hex (`TLSIdentity.sha256Fingerprint`'s form; colons and case do
        /// not matter). Set one of the two.
        public var pinnedServerCertificateSHA256: String?
        /// A PEM file of root certificates trusted for an `https` remote instead of the
        /// system's; the host name is still checked. Ignored when a certificate is pinned.
        /// A certificate without a chain to a trusted root stops the replicator with
        /// `QuireError.Code.tlsCertUnknownRoot`, one for another host name with
        /// `QuireError.Code.tlsCertUntrusted`.
        public var trustedRootCertificatesFile: URL?
        /// Trusts an `https` remote only when its certificate is self-signed (issued by itself,
        /// signed with its own key, within its validity dates), checking neither a chain nor
        /// the host name; false by default, as in Couchbase Lite. A certificate issued by
        /// another stops the replicator with `QuireError.Code.tlsCertUntrusted`. A pinned
        /// certificate, when set, decides instead.
        public var acceptOnlySelfSignedServerCertificate = false
        /// Accepts any certificate from an `https` remote, checking neither its chain, its
        /// host name nor a pin: `quire db push --insecure`, for trying things out. Not API
        /// for apps (Couchbase Lite has no such setting).
        package var acceptsAnyServerCertificate = false
    #endif
    /// The largest response accepted from the peer; a larger one ends the replication with
    /// an error instead of filling memory.
    var maximumResponseBytes = 64 << 20
    private var entries: [(collection: Collection, config: CollectionConfiguration)] = []

    /// A configuration replicating with `target`; add collections before starting.
    public init(target: Endpoint) {
        self.target = target
    }

    /// A copy of `config`: later changes to either leave the other as it is.
    public init(config: ReplicatorConfiguration) {
        self = config
    }

    /// The collections to replicate, in the order added.
    public var collections: [Collection] { entries.map(\.collection) }

    /// Adds `collection` (or replaces its configuration).
    public mutating func addCollection(_ collection: Collection, config: CollectionConfiguration? = nil) {
        let config = config ?? CollectionConfiguration()
        if let index = entries.firstIndex(where: { $0.collection == collection }) {
            entries[index].config = config
        } else {
            entries.append((collection, config))
        }
    }

    /// Adds each of `collections` with the same configuration.
    public mutating func addCollections(_ collections: [Collection], config: CollectionConfiguration? = nil) {
        for collection in collections { addCollection(collection, config: config) }
    }

    /// Stops replicating `collection`.
    public mutating func removeCollection(_ collection: Collection) {
        entries.removeAll { $0.collection == collection }
    }

    /// The configuration of `collection`, nil when it is not replicated.
    public func collectionConfig(_ collection: Collection) -> CollectionConfiguration? {
        entries.first { $0.collection == collection }?.config
    }

    /// The attempts allowed, applying the default.
    var effectiveMaxAttempts: UInt { maxAttempts }

    /// The wait cap, applying the default.
    var effectiveMaxAttemptWaitTime: TimeInterval {
        maxAttemptWaitTime > 0 ? maxAttemptWaitTime : Self.defaultMaxAttemptsWaitTime
    }

    /// The long-poll time, applying the default.
    var effectiveHeartbeat: TimeInterval {
        heartbeat > 0 ? heartbeat : Self.defaultHeartbeat
    }

    /// Checks the configuration before a start.
    func validated() throws -> (
        url: NormalizedURL, entries: [(collection: Collection, config: CollectionConfiguration)]
    ) {
        guard let endpoint = target as? URLEndpoint else {
            throw QuireError(.invalidParameter, "the replicator's target must be a URLEndpoint")
        }
        let url = try NormalizedURL(endpoint.url)
        guard !entries.isEmpty else {
            throw QuireError(
                .invalidParameter, "the replicator configuration has no collection: call addCollection first")
        }
        let database = entries[0].collection.database
        for entry in entries where entry.collection.database.filePath != database.filePath {
            throw QuireError(
                .invalidParameter,
                "collection \(entry.collection.fullName) belongs to database '\(entry.collection.database.name)', not '\(database.name)': one replicator replicates one database"
            )
        }
        guard heartbeat >= 0 else {
            throw QuireError(
                .invalidParameter, "heartbeat must not be negative (0 means the default, 300 s); it is \(heartbeat)")
        }
        guard maxAttemptWaitTime >= 0 else {
            throw QuireError(
                .invalidParameter,
                "maxAttemptWaitTime must not be negative (0 means the default, 300 s); it is \(maxAttemptWaitTime)")
        }
        guard requestTimeout > 0 else {
            throw QuireError(.invalidParameter, "requestTimeout must be positive; it is \(requestTimeout)")
        }
        #if TLS
            _ = try ServerTrust(self)
        #endif
        return (url, entries)
    }
}
