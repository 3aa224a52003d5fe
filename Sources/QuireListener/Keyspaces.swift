import Quire
import QuireSync

/// One collection as the listener serves it.
struct ServedCollection: Sendable {
    /// The path segment naming it (`db` or `db.scope.collection`).
    let keyspace: String
    /// The collection.
    let collection: Collection
    /// Its database's blob bytes as attachments.
    let codec: AttachmentCodec
}

/// The path segments that name served collections, the way Sync Gateway names keyspaces.
///
/// The default collection of database `db` is `db` (and `db._default._default`); another
/// collection is `db.scope.collection`, and one in the default scope also `db.collection`.
/// Segments are looked up whole, so a database name with dots is fine; a name that two
/// collections would share goes to the first one configured.
struct Keyspaces: Sendable {
    private var byName: [String: ServedCollection] = [:]
    /// The canonical keyspaces, in configuration order.
    private(set) var canonical: [ServedCollection] = []

    /// The keyspaces of `collections`; invalidParameter when empty or when two collections
    /// would share a keyspace.
    init(collections: [Collection]) throws {
        guard !collections.isEmpty else {
            throw QuireError(.invalidParameter, "a listener needs at least one collection to serve")
        }
        for collection in collections {
            let database = collection.database.name
            let isDefaultScope = collection.scope.name == Database.defaultScopeName
            let isDefault = isDefaultScope && collection.name == Database.defaultCollectionName
            let keyspace = isDefault ? database : "\(database).\(collection.scope.name).\(collection.name)"
            let served = ServedCollection(
                keyspace: keyspace, collection: collection, codec: AttachmentCodec(database: collection.database))
            var names = [keyspace, "\(database).\(collection.scope.name).\(collection.name)"]
            if isDefaultScope { names.append("\(database).\(collection.name)") }
            guard byName[keyspace] == nil else {
                throw QuireError(.invalidParameter, "two served collections would both be at /\(keyspace)")
            }
            for name in Set(names) where byName[name] == nil { byName[name] = served }
            canonical.append(served)
        }
    }

    /// The collection at path segment `name`.
    func resolve(_ name: String) -> ServedCollection? {
        byName[name]
    }
}
