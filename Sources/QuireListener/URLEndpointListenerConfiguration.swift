import Quire
import QuireSync

/// What a ``URLEndpointListener`` serves, and how.
///
/// The connection limits have defaults safe for a listener in the open: at most
/// ``maxConnections`` connections (more wait in the kernel's accept queue until one closes), a
/// request head must arrive within ``requestHeadTimeout`` of its first byte, a connection
/// with nothing to do closes after ``idleTimeout``, request bodies being read hold at most
/// ``maxInFlightBodyBytes`` between them (more wait their turn), large responses being
/// written hold at most as many, and a client that takes no response bytes for
/// ``responseWriteTimeout`` is disconnected.
public struct URLEndpointListenerConfiguration: Sendable {
    /// The collections served. Each is at `/<database name>` (the default collection) or
    /// `/<database name>.<scope>.<collection>`, like Sync Gateway's keyspaces; a collection
    /// of the default scope is also at `/<database name>.<collection>`.
    public var collections: [Collection]
    /// The TCP port; nil or 0 picks a free one (read it from ``URLEndpointListener/port``).
    public var port: UInt16?
    /// The address to listen on (an IP address or host name, such as `127.0.0.1`); nil
    /// listens on every interface.
    public var networkInterface: String?
    /// Refuses every document write with 403, `_local` documents included, so peers can
    /// only pull (a pulling replicator keeps its checkpoint on its own side).
    public var readOnly: Bool
    /// Checks clients: a ``ListenerPasswordAuthenticator`` checks HTTP Basic credentials,
    /// a `ListenerCertificateAuthenticator` (TLS trait) the client's TLS certificate; nil lets
    /// every request in.
    public var authenticator: (any ListenerAuthenticator)?
    /// The largest request body accepted; larger ones get 413. 32 MiB by default.
    public var maxRequestBodySize = 32 * 1024 * 1024
    /// The longest a longpoll or continuous `_changes` request may wait without a heartbeat,
    /// whatever `timeout` it asks for. 5 minutes by default.
    public var maxFeedTimeout: Duration = .seconds(300)
    /// The most connections open at once; further clients wait in the accept queue until one
    /// closes. 1,000 by default.
    public var maxConnections = 1000
    /// How long a request head (request line and headers) may take to arrive, counted from
    /// the connection opening, or on a kept connection from the head's first byte; a
    /// connection that takes longer is closed. 30 seconds by default.
    public var requestHeadTimeout: Duration = .seconds(30)
    /// How long a connection may do nothing (no request in progress, or a request body that
    /// stopped coming) before it is closed. 2 minutes by default. Feeds waiting for changes
    /// are not idle.
    public var idleTimeout: Duration = .seconds(120)
    /// The most request-body bytes held at once by the requests being read. A body announces
    /// its size (`Content-Length`) and waits until it fits; a chunked body counts the bytes
    /// received, waiting for room as it grows; bodies of 64 KiB or less do not count. Never less than
    /// ``maxRequestBodySize``. 128 MiB by default.
    public var maxInFlightBodyBytes = 128 * 1024 * 1024
    /// Browser origins (`https://app.example.com`) allowed to call the listener with CORS,
    /// or `["*"]` for any origin (then without credentials). Empty (the default) sends no
    /// CORS headers, so browsers keep pages of other origins out.
    public var corsOrigins: [String] = []
    /// Receives one line per request in Common Log Format; nil (the default) logs nothing.
    public var accessLog: ListenerAccessLog? = nil
    /// A folder whose every database is served besides ``collections`` (which may then be
    /// empty), with `GET /_all_dbs` and, when the folder allows, `PUT` and `DELETE /{db}`.
    public var databaseFolder: ListenerDatabaseFolder? = nil
    /// What becomes of a replicated revision that conflicts with the document's current
    /// one: ``Conflicts-swift.enum/refuse`` (409, as Couchbase Lite's listener; the default
    /// here) or ``Conflicts-swift.enum/keep`` (stored as a conflict, as CouchDB; the default
    /// of ``init(databaseFolder:port:networkInterface:readOnly:authenticator:)``).
    public var conflicts: Conflicts = .refuse
    /// How long a request body may take beyond what ``minimumBodyRate`` allows: a body must
    /// have arrived in full by this long after its head, plus one second per
    /// ``minimumBodyRate`` bytes received. A slower sender's connection is closed, whether
    /// the request was answered already (a 401, say) or not. 30 seconds by default.
    public var requestBodyTimeout: Duration = .seconds(30)
    /// The bytes per second a request body must average, beyond ``requestBodyTimeout``, for
    /// its connection to stay open. 1,024 by default.
    public var minimumBodyRate: Int = 1024
    /// How long a response may wait for the client to take its next bytes (the socket
    /// staying full because the client does not read) before its connection is closed; also
    /// how long a large document waits for room in the response budget before it is answered
    /// with 503 and `Retry-After`. A client that reads slowly but steadily is not affected.
    /// 60 seconds by default.
    ///
    /// Responses rendered whole (a document, `open_revs`, an attachment) over 64 KiB hold
    /// their size in the server-wide response budget (``maxInFlightBodyBytes``, as for
    /// request bodies) from before they are rendered until their last byte is written or the
    /// connection closes, and are written 64 KiB at a time as the socket drains; so clients
    /// that do not read hold at most that budget, and only for this long.
    public var responseWriteTimeout: Duration = .seconds(60)
    /// Couchbase Lite's switch for sending revisions as deltas; false by default. Quire
    /// speaks CouchDB's replication protocol, which sends each revision whole (attachments
    /// only when the peer lacks them), so the listener serves the same whatever its value;
    /// it is kept so configurations written for Couchbase Lite carry over.
    public var enableDeltaSync = false
    #if TLS
        /// Serves plain HTTP when true (the default); HTTPS when false, with ``tlsIdentity``
        /// or, when that is nil, a self-signed identity made at the first start (see
        /// ``URLEndpointListener/tlsIdentity``).
        ///
        /// Couchbase Lite's listener defaults to TLS; Quire's defaults to plain HTTP, so
        /// set this to false to match Couchbase Lite. Present with the package's `TLS` trait
        /// (on by default).
        public var disableTLS = true
        /// The certificate and key to serve HTTPS with; nil makes a self-signed one. Ignored
        /// while ``disableTLS`` is true.
        public var tlsIdentity: TLSIdentity? = nil
    #endif

    /// A configuration serving `collections`, with the limits at their defaults (set the
    /// properties to change them).
    public init(
        collections: [Collection],
        port: UInt16? = nil,
        networkInterface: String? = nil,
        readOnly: Bool = false,
        authenticator: (any ListenerAuthenticator)? = nil
    ) {
        self.collections = collections
        self.port = port
        self.networkInterface = networkInterface
        self.readOnly = readOnly
        self.authenticator = authenticator
    }

    /// A copy of `config`: later changes to either leave the other as it is.
    public init(config: URLEndpointListenerConfiguration) {
        self = config
    }

    /// Throws invalidParameter for limits that cannot work (a cap below 1, a timeout that
    /// is not positive, a body size below 0).
    func validate() throws {
        guard maxConnections >= 1 else {
            throw QuireError(.invalidParameter, "maxConnections must be at least 1, not \(maxConnections)")
        }
        guard maxRequestBodySize >= 0 else {
            throw QuireError(.invalidParameter, "maxRequestBodySize must not be negative")
        }
        for (name, value) in [
            ("requestHeadTimeout", requestHeadTimeout), ("idleTimeout", idleTimeout),
            ("maxFeedTimeout", maxFeedTimeout), ("requestBodyTimeout", requestBodyTimeout),
            ("responseWriteTimeout", responseWriteTimeout),
        ] where value <= .zero {
            throw QuireError(.invalidParameter, "\(name) must be positive, not \(value)")
        }
        guard minimumBodyRate >= 1 else {
            throw QuireError(.invalidParameter, "minimumBodyRate must be at least 1, not \(minimumBodyRate)")
        }
        for origin in corsOrigins where origin != "*" && !(origin.hasPrefix("http://") || origin.hasPrefix("https://"))
        {
            throw QuireError(.invalidParameter, "CORS origin '\(origin)' must be '*' or start with http:// or https://")
        }
    }
}
