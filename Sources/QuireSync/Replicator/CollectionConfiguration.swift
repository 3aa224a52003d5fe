import Quire

/// A filter run on each document pushed or pulled; false skips it.
public typealias ReplicationFilter = @Sendable (Document, DocumentFlags) -> Bool

/// How one collection is replicated.
public struct CollectionConfiguration: Sendable {
    /// Sync Gateway channels to pull from (`filter=sync_gateway/bychannel`); nil pulls all.
    /// Push ignores channels.
    public var channels: [String]?
    /// The only documents to replicate, both ways; nil replicates all. Pull sends them to the
    /// server as CouchDB's `_doc_ids` filter.
    public var documentIDs: [String]?
    /// Decides which local changes are pushed.
    public var pushFilter: ReplicationFilter?
    /// Decides which remote changes are stored. It sees blob metadata only: blob content is
    /// fetched for the documents it accepts.
    public var pullFilter: ReplicationFilter?
    /// Resolves conflicts pull creates; nil uses ``ConflictResolver/default``.
    public var conflictResolver: ConflictResolverProtocol?
    /// A server-side filter function for pull (CouchDB's `filter=ddoc/name`), not in Couchbase
    /// Lite; ignored when channels or document IDs are set.
    public var filter: String?
    /// The server-side filter's parameters, sent as query parameters.
    public var filterParameters: [String: String]?

    /// A configuration that replicates every document with the default resolver.
    public init() {}

    /// A configuration with the given options.
    public init(
        channels: [String]? = nil, documentIDs: [String]? = nil, pushFilter: ReplicationFilter? = nil,
        pullFilter: ReplicationFilter? = nil, conflictResolver: ConflictResolverProtocol? = nil
    ) {
        self.channels = channels
        self.documentIDs = documentIDs
        self.pushFilter = pushFilter
        self.pullFilter = pullFilter
        self.conflictResolver = conflictResolver
    }
}
