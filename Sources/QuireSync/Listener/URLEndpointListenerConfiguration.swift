import Quire

/// What a ``URLEndpointListener`` serves, and how.
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
    /// Checks HTTP Basic credentials; nil lets every request in.
    public var authenticator: ListenerPasswordAuthenticator?
    /// The largest request body accepted; larger ones get 413. 32 MiB by default.
    public var maxRequestBodySize: Int
    /// The longest a longpoll or continuous `_changes` request may wait without a heartbeat,
    /// whatever `timeout` it asks for. 5 minutes by default.
    public var maxFeedTimeout: Duration

    /// A configuration serving `collections`.
    public init(
        collections: [Collection],
        port: UInt16? = nil,
        networkInterface: String? = nil,
        readOnly: Bool = false,
        authenticator: ListenerPasswordAuthenticator? = nil,
        maxRequestBodySize: Int = 32 * 1024 * 1024,
        maxFeedTimeout: Duration = .seconds(300)
    ) {
        self.collections = collections
        self.port = port
        self.networkInterface = networkInterface
        self.readOnly = readOnly
        self.authenticator = authenticator
        self.maxRequestBodySize = maxRequestBodySize
        self.maxFeedTimeout = maxFeedTimeout
    }
}
