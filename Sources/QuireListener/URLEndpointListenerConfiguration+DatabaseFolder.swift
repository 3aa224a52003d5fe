import Quire
import QuireSync

extension URLEndpointListenerConfiguration {
    /// A configuration serving every database of `databaseFolder` (see
    /// ``ListenerDatabaseFolder``); the other parameters are those of
    /// ``init(collections:port:networkInterface:readOnly:authenticator:)``.
    ///
    /// Conflicting replicated revisions are kept, as CouchDB keeps them (``conflicts`` is
    /// ``Conflicts-swift.enum/keep``), since a folder of databases is what CouchDB clients
    /// talk to; set ``conflicts`` to ``Conflicts-swift.enum/refuse`` for Couchbase Lite's rule.
    public init(
        databaseFolder: ListenerDatabaseFolder,
        port: UInt16? = nil,
        networkInterface: String? = nil,
        readOnly: Bool = false,
        authenticator: (any ListenerAuthenticator)? = nil
    ) {
        self.init(
            collections: [], port: port, networkInterface: networkInterface, readOnly: readOnly,
            authenticator: authenticator)
        self.databaseFolder = databaseFolder
        conflicts = .keep
    }
}
