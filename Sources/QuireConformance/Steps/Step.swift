import Foundation
import Quire

/// One operation of the closed step vocabulary, with its arguments decoded and its variables
/// already substituted. Engines receive these through ``EngineSession/perform(_:in:)``.
///
/// The runner handles `set`, `inspect` and `batch` itself (a batch calls
/// ``EngineSession/inBatch(_:)`` and performs its steps inside); every other step reaches the
/// engine as one of these cases. The YAML keyword of each case is ``keyword``.
package enum Step: Sendable, Hashable {
    /// Creates a collection (and its scope); returns `{name, scope, fullName}`. Returns the
    /// existing collection when it is already there.
    case createCollection(CollectionName)
    /// Deletes a collection; returns nothing.
    case deleteCollection(CollectionName)
    /// Looks a collection up; returns `{name, scope, fullName}` or `null`.
    case collection(CollectionName)
    /// Lists the collection names of a scope, sorted.
    case collections(scope: String)
    /// Looks a scope up; returns `{name}` or `null`.
    case scope(name: String)
    /// Lists the scope names, sorted.
    case scopes
    /// Saves a document; returns it as ``DocumentSnapshot/specValue``.
    case save(Save)
    /// Reads a document; returns it as ``DocumentSnapshot/specValue``, or `null` when it is
    /// absent or deleted.
    case get(DocumentReference)
    /// Deletes a document (writes a tombstone); returns nothing.
    case delete(Delete)
    /// Purges a document (no trace left); returns nothing.
    case purge(DocumentReference)
    /// Counts the live documents of a collection; returns an integer.
    case count(CollectionName)
    /// Sets (or, with nil, clears) a document's expiration; returns nothing.
    case setExpiration(DocumentReference, Expiration?)
    /// Reads a document's expiration; returns milliseconds since 1970 or `null`.
    case getExpiration(DocumentReference)
    /// Moves the manual clock forward (and lets due housekeeping run); returns nothing.
    case advanceClock(seconds: Double)
    /// Runs a SQL++ query; returns the rows as an array of objects.
    case query(Query)
    /// Creates an index; returns nothing.
    case createIndex(Index)
    /// Deletes an index by name; returns nothing.
    case deleteIndex(name: String, collection: CollectionName)
    /// Lists the index names of a collection, sorted.
    case indexes(CollectionName)
    /// Opens (lazily creating) the named database in the case directory and makes it current.
    case open(name: String)
    /// Opens another `Database` object on the named database's file, held under `alias`, and
    /// makes it current; with `alias` already held and open, makes that object current again.
    /// (`open` without `as:` returns to the case's own object of that name.)
    case openInstance(name: String, alias: String)
    /// Closes the current database; later steps on it fail with `notOpen` until `reopen`.
    case close
    /// Closes the current database if it is open and opens it again.
    case reopen
    /// Copies a database; returns nothing.
    case copyDatabase(Copy)
    /// Tells whether a database of that name exists in the case directory; returns a boolean.
    case databaseExists(name: String)
    /// Deletes a database from the case directory; returns nothing.
    case deleteDatabase(name: String)
    /// Stores a blob with this UTF-8 text as content in the current database; returns the
    /// blob's properties (`{"@type": "blob", digest, length, content_type}`) to put in a body.
    case saveBlob(content: String, contentType: String)
    /// Reads a blob by its properties; returns its content as text, or `null` when its
    /// content is not stored.
    case blobContent(properties: [String: SpecValue])
    /// Runs database maintenance (`compact`, `reindex`, `integrityCheck`, `optimize`,
    /// `fullOptimize`); returns nothing.
    case maintenance(type: String)
    /// Builds a fixture from a recipe (`quire fixture build`); returns
    /// `{archive, name, collections: {fullName: count}, checkpoints: [...]}`.
    case buildFixture(BuildFixture)
    /// Checks a fixture archive (`quire fixture verify`); returns `{valid, failures}`.
    case verifyFixture(archive: URL)
    /// Installs a fixture archive as a database in the case directory (`quire fixture
    /// install`); returns `{installed}` (false when `ifAbsent` found one already).
    case installFixture(archive: URL, name: String, ifAbsent: Bool)
    /// Serves a database of the case directory (every collection) on 127.0.0.1 with an
    /// ephemeral port until the session closes; returns `{url}`. `keepsConflicts` stores
    /// pushed conflicting revisions as CouchDB does instead of refusing them.
    case serve(database: String, readOnly: Bool, keepsConflicts: Bool)
    /// Sends one HTTP request (to a served database, as a CouchDB client would); returns
    /// `{status, body}`, the body parsed as JSON when it is JSON, as text otherwise.
    case request(method: String, url: String, body: SpecValue?)
    /// Runs a one-shot replicator to its end; returns `{pushed, pulled, error}` (documents
    /// transferred by this run; `error` is null or the message it stopped with).
    case replicate(Replication)
    /// Asks the checkpoint doctor whether a replication would resume; returns
    /// `{resumes, differences, storedCheckpoints}` per collection.
    case checkpointDoctor(DoctorQuery)
    /// Reads one property of a document through a typed getter; returns the getter's result
    /// (see ``TypedRead``). A missing document is notFound.
    case getValue(TypedRead)
    /// Explains a SQL++ query (`explain()`); returns the text: the SQL, then SQLite's plan.
    case explain(Query)
    /// Adds a change listener to a collection (or, with a document ID, to one document) that
    /// records the document IDs it is told about under a name; returns nothing.
    case addChangeListener(ChangeListener)
    /// Returns the document IDs the named listener has been told about so far, in order,
    /// once every notification already committed has been delivered.
    case changes(listener: String)
    /// Removes the named change listener (`token.remove()`); `changes` then reads what it was
    /// told before. Removing it again does nothing, as in Couchbase Lite. Returns nothing.
    case removeChangeListener(name: String)
    /// Waits for the next update of a live query listener (`addChangeListener` with `query`)
    /// not yet waited for; returns that update's row count.
    case waitForChange(name: String)
    /// Sets new parameters on a live query listener's query (`query.parameters = ...`), which
    /// runs it again; returns nothing.
    case setQueryParameters(name: String, parameters: [String: SpecValue])
    /// Streams `size` generated bytes (SplitMix64 from `seed`, eight bytes per draw, little
    /// endian) into a blob in the current database; returns the blob's properties.
    case generateBlob(size: Int, seed: UInt64, contentType: String)
    /// Streams a blob's stored content through a small buffer; returns `{length, digest}`
    /// (the bytes read, the blob's digest), or `null` when its content is not stored.
    case readBlob(properties: [String: SpecValue])
    /// Damages the stored file of a blob in the current database (one byte changed, the
    /// length kept), so that reading it must fail the digest check; returns nothing.
    case damageBlob(digest: String)
    /// Saves a document object held since an earlier step (`object: d1`), as an app saves the
    /// object it holds: stale or not, and into the collection (or database) named, which may
    /// be another than the object's own. Returns the object's own state (see
    /// ``Step/object(name:)``).
    case saveObject(ObjectSave)
    /// Deletes a held document object, in its own collection or the one named; returns the
    /// object's own state afterwards.
    case deleteObject(name: String, collection: CollectionName?, concurrency: ConcurrencyControl)
    /// Makes a mutable copy of a held document, dictionary or array (`toMutable()`); returns its
    /// state. With `as:` the copy is held under that name.
    case toMutable(name: String)
    /// Returns a held object's own state, without reading the store: a document's properties
    /// plus `_meta: {id, collection, revisionID, sequence, isDeleted, mutable}`, a dictionary's
    /// or array's value, a blob's properties.
    case object(name: String)
    /// Works on the current database's handles (WCDB's handle model); see ``HandleOperation``.
    case handle(HandleOperation)
    /// Deletes a database by name (`Database.delete(withName:)`), whether or not an object
    /// of the case holds it open; returns nothing.
    case deleteDatabaseByName(name: String)
    /// Works on a named replicator held across steps; see ``ReplicatorOperation``.
    case replicator(ReplicatorOperation)
    /// Works on the nested containers of a held document object, or on blob properties; see
    /// ``ContainerOperation``.
    case container(ContainerOperation)
    /// Purges a held document object (`purge(document:)`), in its own collection, the named
    /// one, or the default collection of the named database; returns nothing.
    case purgeObject(name: String, collection: CollectionName?, database: String?)
    /// Opens the named database with a configuration whose `fullSync` is set, and makes it
    /// current (as `open`).
    case openConfigured(name: String, fullSync: Bool)
    /// The current database's own facts: `{name, path, fullSync, synchronous}` (the
    /// configuration's `fullSync`, and SQLite's `synchronous` setting it led to).
    case databaseInfo
    /// Which database a held collection or scope object belongs to: `{name, isCurrent}`,
    /// `isCurrent` telling whether it is the very `Database` object now current.
    case databaseOf(ObjectOwner)
    /// Looks a collection up through a held `Scope` object (`scope.collection(name:)`);
    /// returns `{name, scope, fullName}` or `null`.
    case scopeCollection(name: String, scope: String)
    /// Lists a held `Scope` object's collections (`scope.collections()`), sorted.
    case scopeCollections(scope: String)
    /// The number of blob files the current database stores.
    case blobCount
    /// Looks an index up by name (`collection.index(withName:)`); returns `{name}` or `null`.
    case index(name: String, collection: CollectionName)

    /// The step's name in spec files.
    package var keyword: String {
        switch self {
        case .createCollection: return "createCollection"
        case .deleteCollection: return "deleteCollection"
        case .collection: return "collection"
        case .collections: return "collections"
        case .scope: return "scope"
        case .scopes: return "scopes"
        case .save: return "save"
        case .get: return "get"
        case .delete: return "delete"
        case .purge: return "purge"
        case .count: return "count"
        case .setExpiration: return "setExpiration"
        case .getExpiration: return "getExpiration"
        case .advanceClock: return "advanceClock"
        case .query: return "query"
        case .createIndex: return "createIndex"
        case .deleteIndex: return "deleteIndex"
        case .indexes: return "indexes"
        case .open, .openInstance: return "open"
        case .close: return "close"
        case .reopen: return "reopen"
        case .copyDatabase: return "copyDatabase"
        case .databaseExists: return "databaseExists"
        case .deleteDatabase: return "deleteDatabase"
        case .saveBlob: return "saveBlob"
        case .blobContent: return "blobContent"
        case .maintenance: return "maintenance"
        case .buildFixture: return "buildFixture"
        case .verifyFixture: return "verifyFixture"
        case .installFixture: return "installFixture"
        case .serve: return "serve"
        case .request: return "request"
        case .replicate: return "replicate"
        case .checkpointDoctor: return "checkpointDoctor"
        case .getValue: return "getValue"
        case .explain: return "explain"
        case .addChangeListener: return "addChangeListener"
        case .changes: return "changes"
        case .removeChangeListener: return "removeChangeListener"
        case .waitForChange: return "waitForChange"
        case .setQueryParameters: return "setQueryParameters"
        case .generateBlob: return "generateBlob"
        case .readBlob: return "readBlob"
        case .damageBlob: return "damageBlob"
        case .saveObject: return "save"
        case .deleteObject: return "delete"
        case .toMutable: return "toMutable"
        case .object: return "object"
        case .handle(let operation): return operation.keyword
        case .deleteDatabaseByName: return "deleteDatabase"
        case .replicator(let operation): return operation.keyword
        case .container(let operation): return operation.keyword
        case .purgeObject: return "purge"
        case .openConfigured: return "open"
        case .databaseInfo: return "databaseInfo"
        case .databaseOf: return "databaseOf"
        case .scopeCollection: return "collection"
        case .scopeCollections: return "collections"
        case .blobCount: return "blobCount"
        case .index: return "index"
        }
    }

    /// The document the step is about, if it is about one; document-state checks use it.
    package var document: DocumentReference? {
        switch self {
        case .save(let save): return save.id.map { DocumentReference($0, in: save.collection) }
        case .get(let reference), .purge(let reference), .getExpiration(let reference),
            .setExpiration(let reference, _):
            return reference
        case .getValue(let read): return read.document
        case .delete(let delete): return delete.document
        default: return nil
        }
    }
}

extension Step {
    /// A held object whose database `databaseOf` names.
    package enum ObjectOwner: Sendable, Hashable {
        /// The collection object last created or looked up under that name.
        case collection(CollectionName)
        /// The scope object last looked up (or reached through a collection) under that name.
        case scope(String)
    }

    /// How a save or delete treats a newer revision than the one it started from.
    package enum ConcurrencyControl: String, Sendable, Hashable, CaseIterable {
        /// Overwrite whatever is there.
        case lastWriteWins
        /// Fail with `conflict` when the document changed since ``Save/baseRevisionID``.
        case failOnConflict
    }

    /// A document body: properties, or raw JSON text for the engine's own parser.
    package enum Content: Sendable, Hashable {
        /// Properties, as a mapping.
        case properties([String: SpecValue])
        /// JSON text, passed to the engine unparsed (to test its JSON handling).
        case json(String)
    }

    /// The arguments of `save`.
    package struct Save: Sendable, Hashable {
        /// The collection.
        package var collection: CollectionName
        /// The document ID; nil lets the engine generate one.
        package var id: String?
        /// The new body.
        package var content: Content
        /// The concurrency control.
        package var concurrency: ConcurrencyControl
        /// The revision the new body was derived from (the document was read at it); nil for a
        /// document made from scratch.
        package var baseRevisionID: String?

        /// Makes save arguments.
        package init(
            collection: CollectionName = .default, id: String?, content: Content,
            concurrency: ConcurrencyControl = .lastWriteWins, baseRevisionID: String? = nil
        ) {
            self.collection = collection
            self.id = id
            self.content = content
            self.concurrency = concurrency
            self.baseRevisionID = baseRevisionID
        }
    }

    /// An operation on the current database's handles.
    package enum HandleOperation: Sendable, Hashable {
        /// `canOpen`: tries to open the database now; returns a boolean.
        case canOpen
        /// `isOpened`: whether the database holds an open SQLite handle; returns a boolean.
        case isOpened
        /// `blockade`: stops other threads' operations until `unblockade`; returns nothing.
        case blockade
        /// `unblockade`: lifts the blockade; returns nothing.
        case unblockade
        /// `closeHandles`: `close(onClosed:)`; returns `{openedInOnClosed}`, whether a handle
        /// was still open while `onClosed` ran.
        case closeHandles
        /// `purgeFreeHandles`: closes the idle handles; returns nothing.
        case purgeFreeHandles
        /// `tag`: sets the tag shared by every object on the file (nil: only reads it);
        /// returns the tag afterwards, or `null`.
        case tag(set: Int?)

        /// The step's name in spec files.
        package var keyword: String {
            switch self {
            case .canOpen: return "canOpen"
            case .isOpened: return "isOpened"
            case .blockade: return "blockade"
            case .unblockade: return "unblockade"
            case .closeHandles: return "closeHandles"
            case .purgeFreeHandles: return "purgeFreeHandles"
            case .tag: return "tag"
            }
        }
    }

    /// The arguments of `save` given a held object (`save: {object: d1}`).
    package struct ObjectSave: Sendable, Hashable {
        /// The name the object is held under.
        package var name: String
        /// Where to save it; nil for the object's own collection.
        package var collection: CollectionName?
        /// The database to save it in (by name, opened if needed); nil for the current one.
        package var database: String?
        /// Properties set on the object before saving.
        package var merge: [String: SpecValue]
        /// Keys removed from the object before saving.
        package var unset: [String]
        /// The concurrency control.
        package var concurrency: ConcurrencyControl
        /// A conflict handler's choice; with one, the save goes through
        /// `save(document:conflictHandler:)` and returns `{saved, calls, theirs, document}`.
        package var conflictHandler: ConflictChoice?

        /// Makes the arguments.
        package init(
            name: String, collection: CollectionName? = nil, database: String? = nil, merge: [String: SpecValue] = [:],
            unset: [String] = [], concurrency: ConcurrencyControl = .lastWriteWins,
            conflictHandler: ConflictChoice? = nil
        ) {
            self.conflictHandler = conflictHandler
            self.name = name
            self.collection = collection
            self.database = database
            self.merge = merge
            self.unset = unset
            self.concurrency = concurrency
        }
    }

    /// The arguments of `delete`.
    package struct Delete: Sendable, Hashable {
        /// The document.
        package var document: DocumentReference
        /// The concurrency control.
        package var concurrency: ConcurrencyControl
        /// The revision the caller last read, when it came from a read document.
        package var baseRevisionID: String?

        /// Makes delete arguments.
        package init(
            document: DocumentReference, concurrency: ConcurrencyControl = .lastWriteWins, baseRevisionID: String? = nil
        ) {
            self.document = document
            self.concurrency = concurrency
            self.baseRevisionID = baseRevisionID
        }
    }

    /// When a document expires.
    package enum Expiration: Sendable, Hashable {
        /// At a point in time.
        case at(Date)
        /// This many seconds after the database clock's current time.
        case after(seconds: Double)
    }

    /// The arguments of `query`.
    package struct Query: Sendable, Hashable {
        /// The SQL++ text.
        package var sql: String
        /// Named parameters (`$name` in the text).
        package var parameters: [String: SpecValue]
        /// How each row is given back.
        package var result: QueryResultForm
        /// Reads of the result set in turn (`next`, `all`); nil reads every row at once.
        package var reads: [QueryRead]?

        /// Makes query arguments.
        package init(
            sql: String, parameters: [String: SpecValue] = [:], result: QueryResultForm = .rows,
            reads: [QueryRead]? = nil
        ) {
            self.sql = sql
            self.parameters = parameters
            self.result = result
            self.reads = reads
        }
    }

    /// How a `query` step gives its rows back.
    package enum QueryResultForm: String, Sendable, Hashable, CaseIterable {
        /// Each row as a mapping by column name (`Result.toDictionary`): MISSING columns left out.
        case rows
        /// Each row as a list by column index (`Result.toArray`): MISSING columns as null.
        case arrays
        /// Each row as its `Result.toJSON()` text.
        case json
        /// The result set's column names, in order, instead of the rows.
        case columnNames
    }

    /// One read of a query's result set.
    package enum QueryRead: String, Sendable, Hashable, CaseIterable {
        /// `ResultSet.next()`: one row, or null when none is left.
        case next
        /// `ResultSet.allResults()`: every row not read yet.
        case all
    }

    /// The kind of an index.
    package enum IndexKind: String, Sendable, Hashable, CaseIterable {
        /// A value index on expressions.
        case value
        /// A full-text index.
        case fullText
        /// An array index (`ArrayIndexConfiguration`).
        case array
    }

    /// The arguments of `createIndex`.
    package struct Index: Sendable, Hashable {
        /// The collection.
        package var collection: CollectionName
        /// The index name.
        package var name: String
        /// Value or full-text.
        package var kind: IndexKind
        /// The indexed expressions (SQL++).
        package var expressions: [String]
        /// A partial index's condition (SQL++), if any.
        package var whereClause: String?
        /// A full-text index's language (`en`), if any.
        package var language: String?
        /// Whether a full-text index ignores accents.
        package var ignoreAccents: Bool
        /// An array index's path to the array.
        package var path: String?

        /// Makes index arguments.
        package init(
            collection: CollectionName = .default, name: String, kind: IndexKind = .value, expressions: [String],
            whereClause: String? = nil, language: String? = nil, ignoreAccents: Bool = false, path: String? = nil
        ) {
            self.path = path
            self.collection = collection
            self.name = name
            self.kind = kind
            self.expressions = expressions
            self.whereClause = whereClause
            self.language = language
            self.ignoreAccents = ignoreAccents
        }
    }

    /// The arguments of `copyDatabase`.
    package struct Copy: Sendable, Hashable {
        /// Where a copy comes from.
        package enum Source: Sendable, Hashable {
            /// A database of that name in the case directory.
            case database(String)
            /// A database directory at that path (for example a fixture next to the spec file).
            case path(URL)
        }

        /// The source.
        package var source: Source
        /// The name of the new database in the case directory.
        package var destination: String
        /// Copies the files as they are instead of calling `Database.copy`, so the copy keeps
        /// the source's UUIDs (a backup restored elsewhere, a folder copied by hand).
        package var asFiles: Bool

        /// Makes copy arguments.
        package init(source: Source, destination: String, asFiles: Bool = false) {
            self.source = source
            self.destination = destination
            self.asFiles = asFiles
        }
    }

    /// The arguments of `buildFixture`.
    package struct BuildFixture: Sendable, Hashable {
        /// Where the recipe comes from.
        package enum Recipe: Sendable, Hashable {
            /// A recipe file.
            case file(URL)
            /// Recipe text written in the spec; relative paths in it are taken from
            /// `baseFolder` (the spec file's folder).
            case text(String, baseFolder: URL)
        }

        /// The recipe.
        package var recipe: Recipe
        /// Replaces the URL of a `remote` source (a served database's URL is known only at
        /// run time).
        package var remoteURL: String?

        /// Makes build arguments.
        package init(recipe: Recipe, remoteURL: String? = nil) {
            self.recipe = recipe
            self.remoteURL = remoteURL
        }
    }

    /// Which way a `replicate` step copies changes.
    package enum ReplicationType: String, Sendable, Hashable, CaseIterable {
        /// Local changes to the remote.
        case push
        /// Remote changes to the local database.
        case pull
        /// Both ways.
        case pushAndPull
    }

    /// The arguments of `replicate`.
    package struct Replication: Sendable, Hashable {
        /// The remote database's URL.
        package var url: String
        /// The local database; nil for the current one.
        package var database: String?
        /// Push, pull or both.
        package var type: ReplicationType
        /// The collections replicated, all with the same options.
        package var collections: [CollectionName]
        /// Channels to pull; nil pulls all.
        package var channels: [String]?
        /// The only documents replicated; nil replicates all.
        package var documentIDs: [String]?
        /// Starts from the beginning instead of the checkpoints.
        package var reset: Bool

        /// Makes replicate arguments.
        package init(
            url: String, database: String? = nil, type: ReplicationType, collections: [CollectionName] = [.default],
            channels: [String]? = nil, documentIDs: [String]? = nil, reset: Bool = false
        ) {
            self.url = url
            self.database = database
            self.type = type
            self.collections = collections
            self.channels = channels
            self.documentIDs = documentIDs
            self.reset = reset
        }
    }

    /// The arguments of `checkpointDoctor`.
    package struct DoctorQuery: Sendable, Hashable {
        /// The local database; nil for the current one.
        package var database: String?
        /// The collection examined.
        package var collection: CollectionName
        /// The remote database's URL the replication would use.
        package var url: String
        /// Channels the replication would pull.
        package var channels: [String]
        /// Document IDs the replication would use.
        package var documentIDs: [String]

        /// Makes doctor arguments.
        package init(
            database: String? = nil, collection: CollectionName = .default, url: String, channels: [String] = [],
            documentIDs: [String] = []
        ) {
            self.database = database
            self.collection = collection
            self.url = url
            self.channels = channels
            self.documentIDs = documentIDs
        }
    }
}
