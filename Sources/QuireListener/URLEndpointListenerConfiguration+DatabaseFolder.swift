import Quire
import QuireSync

extension URLEndpointListenerConfiguration {
    /// A configuration serving every database of `databaseFolder` (see
    /// ``ListenerDatabaseFolder``); the other parameters are those of
    /// ``init(collections:port:networkInterface:readOnly:authenticator:maxRequestBodySize:maxFeedTimeout:maxConnections:requestHeadTimeout:idleTimeout:maxInFlightBodyBytes:corsOrigins:accessLog:)``.
    ///
    /// Conflicting replicated revisions are kept, as CouchDB keeps them (``conflicts`` is
    /// ``Conflicts-swift.enum/keep``), since a folder of databases is what CouchDB clients
    /// talk to; set ``conflicts`` to ``Conflicts-swift.enum/refuse`` for Couchbase Lite's rule.
    public init(
        databaseFolder: ListenerDatabaseFolder,
        port: UInt16? = nil,
        networkInterface: String? = nil,
        readOnly: Bool = false,
        authenticator: (any ListenerAuthenticator)? = nil,
        maxRequestBodySize: Int = 32 * 1024 * 1024,
        maxFeedTimeout: Duration = .seconds(300),
        maxConnections: Int = 1000,
        requestHeadTimeout: Duration = .seconds(30),
        idleTimeout: Duration = .seconds(120),
        maxInFlightBodyBytes: Int = 128 * 1024 * 1024,
        corsOrigins: [String] = [],
        accessLog: ListenerAccessLog? = nil
    ) {
        self.init(
            collections: [], port: port, networkInterface: networkInterface, readOnly: readOnly,
            authenticator: authenticator, maxRequestBodySize: maxRequestBodySize, maxFeedTimeout: maxFeedTimeout,
            maxConnections: maxConnections, requestHeadTimeout: requestHeadTimeout, idleTimeout: idleTimeout,
            maxInFlightBodyBytes: maxInFlightBodyBytes, corsOrigins: corsOrigins, accessLog: accessLog)
        self.databaseFolder = databaseFolder
        conflicts = .keep
    }
}
