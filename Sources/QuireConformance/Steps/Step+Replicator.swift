extension Step {
    /// A step on a named replicator that outlives the step (continuous or one-shot), as an app
    /// holds a `Replicator`: started, waited on, asked about pending documents, stopped.
    package enum ReplicatorOperation: Sendable, Hashable {
        /// `startReplicator`: makes and starts a replicator; returns nothing.
        case start(ReplicatorSettings)
        /// `waitForReplicator`: waits until the replicator's activity is `idle` or `stopped`;
        /// returns `{activity, error, errorCode}`.
        case wait(name: String, activity: String)
        /// `stopReplicator`: stops it and waits until it has stopped; returns nothing.
        case stop(name: String)
        /// `pendingDocumentIDs`: the IDs a push would still send, sorted.
        case pendingDocumentIDs(name: String, collection: CollectionName)
        /// `isDocumentPending`: whether one document is pending; a boolean.
        case isDocumentPending(name: String, id: String, collection: CollectionName)
        /// `replicationEvents`: every document replication event so far, in order, once the
        /// listener has been told of every batch the replicator reported.
        case events(name: String)
        /// `waitForDocument`: waits until a database holds a document (or, with `deleted`,
        /// its tombstone); returns the revision ID.
        case waitForDocument(WaitForDocument)

        /// The step's name in spec files.
        package var keyword: String {
            switch self {
            case .start: return "startReplicator"
            case .wait: return "waitForReplicator"
            case .stop: return "stopReplicator"
            case .pendingDocumentIDs: return "pendingDocumentIDs"
            case .isDocumentPending: return "isDocumentPending"
            case .events: return "replicationEvents"
            case .waitForDocument: return "waitForDocument"
            }
        }

        /// Every keyword of these steps.
        package static let keywords: Set<String> = [
            "startReplicator", "waitForReplicator", "stopReplicator", "pendingDocumentIDs", "isDocumentPending",
            "replicationEvents", "waitForDocument",
        ]
    }

    /// The arguments of `startReplicator`.
    package struct ReplicatorSettings: Sendable, Hashable {
        /// The name later steps use.
        package var name: String
        /// The remote database's URL.
        package var url: String
        /// The local database; nil for the current one.
        package var database: String?
        /// Push, pull or both.
        package var type: ReplicationType
        /// Keeps running and replicating changes until stopped (default true).
        package var continuous: Bool
        /// Purges a pulled document whose access was removed (default true).
        package var enableAutoPurge: Bool
        /// Starts from the beginning instead of the checkpoints.
        package var reset: Bool
        /// Each replicated collection with its own options, in order.
        package var collections: [CollectionSettings]

        /// Makes the arguments.
        package init(
            name: String, url: String, database: String? = nil, type: ReplicationType, continuous: Bool = true,
            enableAutoPurge: Bool = true, reset: Bool = false, collections: [CollectionSettings]
        ) {
            self.name = name
            self.url = url
            self.database = database
            self.type = type
            self.continuous = continuous
            self.enableAutoPurge = enableAutoPurge
            self.reset = reset
            self.collections = collections
        }
    }

    /// One collection of a `startReplicator` step and its options.
    package struct CollectionSettings: Sendable, Hashable {
        /// The collection.
        package var collection: CollectionName
        /// The only documents replicated; nil for all.
        package var documentIDs: [String]?
        /// Channels to pull; nil for all.
        package var channels: [String]?
        /// Which documents are pushed; nil for all.
        package var pushFilter: DocumentFilter?
        /// Which documents are pulled; nil for all.
        package var pullFilter: DocumentFilter?
        /// How conflicts end; nil for the default rule.
        package var conflictResolver: ResolverRule?

        /// Makes the settings.
        package init(
            collection: CollectionName, documentIDs: [String]? = nil, channels: [String]? = nil,
            pushFilter: DocumentFilter? = nil, pullFilter: DocumentFilter? = nil, conflictResolver: ResolverRule? = nil
        ) {
            self.collection = collection
            self.documentIDs = documentIDs
            self.channels = channels
            self.pushFilter = pushFilter
            self.pullFilter = pullFilter
            self.conflictResolver = conflictResolver
        }
    }

    /// A push or pull filter written in the spec: a document passes when every condition
    /// given holds.
    package struct DocumentFilter: Sendable, Hashable {
        /// The document's ID is one of these.
        package var documentIDs: [String]?
        /// The property at this key equals ``equals`` (with ``key``).
        package var key: String?
        /// The value the property must have.
        package var equals: SpecValue?
        /// The revision is (true) or is not (false) a deletion.
        package var deleted: Bool?
        /// The revision does (true) or does not (false) remove access.
        package var accessRemoved: Bool?

        /// Makes a filter.
        package init(
            documentIDs: [String]? = nil, key: String? = nil, equals: SpecValue? = nil, deleted: Bool? = nil,
            accessRemoved: Bool? = nil
        ) {
            self.documentIDs = documentIDs
            self.key = key
            self.equals = equals
            self.deleted = deleted
            self.accessRemoved = accessRemoved
        }
    }

    /// A conflict resolver written in the spec.
    package enum ResolverRule: Sendable, Hashable {
        /// The local revision wins.
        case localWins
        /// The remote revision wins.
        case remoteWins
        /// The document is deleted.
        case delete
        /// The local revision with these keys taken from the remote one (removed where the
        /// remote lacks them).
        case merge(keys: [String])
    }

    /// The arguments of `waitForDocument`.
    package struct WaitForDocument: Sendable, Hashable {
        /// The database; nil for the current one.
        package var database: String?
        /// The document.
        package var document: DocumentReference
        /// Waits for a tombstone instead of a live document.
        package var deleted: Bool
        /// Waits for a live document with this property value (with ``key``).
        package var key: String?
        /// The value ``key`` must have.
        package var equals: SpecValue?

        /// Makes the arguments.
        package init(
            database: String? = nil, document: DocumentReference, deleted: Bool = false, key: String? = nil,
            equals: SpecValue? = nil
        ) {
            self.database = database
            self.document = document
            self.deleted = deleted
            self.key = key
            self.equals = equals
        }
    }
}
