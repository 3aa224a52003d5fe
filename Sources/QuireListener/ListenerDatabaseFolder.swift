import Foundation
import Quire
import QuireSync

/// Every database in one folder, served by one ``URLEndpointListener`` the way CouchDB serves
/// its databases (`quire serve DIR`).
///
/// Each `<name>.quire` database in ``directory`` is at `/<name>` (its default collection)
/// and `/<name>.<scope>.<collection>` (its other collections); `GET /_all_dbs` lists them,
/// `GET /<name>` describes one. With ``createsDatabases``, `PUT /<name>` creates an empty
/// database and `PUT /<name>.<scope>.<collection>` a collection (and its database when
/// missing): the keyspace Quire's replicator pushes a named collection to; with ``allowsDelete``, `DELETE /<name>` deletes one and its files. A read-only
/// listener refuses both.
///
/// Databases are opened on first use, at most ``maximumOpenDatabases`` at once: opening one
/// more lets go of the one used least recently, which closes once the requests using it
/// have ended (a later request opens it again). Finding an open database is a dictionary
/// lookup; no lock is held while a path is parsed or a file opened. One created in the
/// folder by another process is found when a request names it. A new database's name must
/// be one CouchDB accepts (`^[a-z][a-z0-9_$()+/-]*$`, at most 238 characters) without `/`,
/// since each database is a folder of its own; other requests only ever match names of
/// databases that exist in ``directory``, so no request reaches a file outside it. A
/// database folder that is a symbolic link, or holds one directly (its SQLite file, WAL or
/// `Attachments` folder), is not served, since the link could lead outside ``directory``.
/// A name is matched by its exact bytes, as Linux's file systems match file names: the
/// precomposed (NFC) and decomposed (NFD) spellings of `café` are two names, and each
/// reaches only the folder spelt that way. New names are ASCII, so this concerns only
/// databases put in the folder by other means. (On macOS the file system itself treats the
/// two spellings as one folder, so both reach it.) Hidden
/// names (a leading `.`, such as an installer's scratch folders) are never served. A path
/// segment longer than ``maximumKeyspaceLength`` bytes names no database: 400 before it is
/// looked at further.
///
/// ```swift
/// let folder = try ListenerDatabaseFolder(directory: "/srv/quire", createsDatabases: true)
/// let listener = URLEndpointListener(config: URLEndpointListenerConfiguration(databaseFolder: folder, port: 4984))
/// try await listener.start()
/// // ... later
/// await listener.stop()
/// try folder.close()
/// ```
// Safe because the folder's mutable state is in `state`, reached only under its lock, and
// `openDatabase` is replaced (by tests) only before the folder serves a request.
public final class ListenerDatabaseFolder: @unchecked Sendable {
    /// The folder holding the databases.
    public let directory: String
    /// Whether `PUT /<name>` creates a database.
    public let createsDatabases: Bool
    /// Whether `DELETE /<name>` deletes a database.
    public let allowsDelete: Bool
    /// The most databases kept open at once (at least 1).
    public let maximumOpenDatabases: Int
    /// Whether the databases commit with `synchronous=FULL` (see
    /// ``DatabaseConfiguration/fullSync``).
    public let fullSync: Bool

    /// The longest database name CouchDB accepts.
    static let maximumNameLength = 238
    /// The longest name of a database, scope or collection looked up, in bytes (a file name
    /// holds at most 255 bytes; Couchbase Lite's scope and collection names at most 251).
    static let maximumPartLength = 251
    /// The longest path segment naming a collection, in bytes: `db.scope.collection` with
    /// each part at its longest.
    public static let maximumKeyspaceLength = 3 * maximumPartLength + 2

    /// An open database and the collections of it served so far, by keyspace.
    private struct Entry {
        let database: Database
        var served: [ExactName: ServedCollection] = [:]
        var lastUse: UInt64
    }

    /// What requests share: the open databases and those being created or deleted.
    private struct State {
        /// The databases open now, by name.
        var opened: [ExactName: Entry] = [:]
        /// Counts uses, for least-recently-used eviction.
        var useClock: UInt64 = 0
        /// Databases being deleted: neither reopened nor created until that ends.
        var deleting: Set<ExactName> = []
        /// Databases being created.
        var creating: Set<ExactName> = []
        var closed = false

        /// 503 once the folder is closed.
        func checkOpen() throws {
            guard !closed else {
                throw HTTPFailure(status: .serviceUnavailable, error: "unavailable", reason: "The server is stopping.")
            }
        }
    }

    private let state = Locked(State())
    /// Opens (or creates) a database; replaced by tests to make opening fail.
    var openDatabase: @Sendable (String, DatabaseConfiguration) throws -> Database = { name, config in
        try Database(name: name, config: config)
    }

    /// Serves the databases of `directory`; notFound when it is not an existing folder.
    /// At most `maximumOpenDatabases` are open at once; `fullSync` opens them with
    /// ``DatabaseConfiguration/fullSync``.
    public init(
        directory: String, createsDatabases: Bool = false, allowsDelete: Bool = false,
        maximumOpenDatabases: Int = 100, fullSync: Bool = false
    ) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw QuireError(.notFound, "'\(directory)' is not a folder")
        }
        self.directory = directory
        self.createsDatabases = createsDatabases
        self.allowsDelete = allowsDelete
        self.maximumOpenDatabases = max(1, maximumOpenDatabases)
        self.fullSync = fullSync
    }

    /// The names of the databases in the folder, sorted (what `GET /_all_dbs` lists).
    public func databaseNames() throws -> [String] {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw QuireError.posix(EIO, "cannot list \(directory): \(error.localizedDescription)")
        }
        return entries.compactMap { entry -> String? in
            guard entry.hasSuffix(".quire") else { return nil }
            let name = String(entry.dropLast(".quire".count))
            return isServable(name) && Database.exists(withName: name, inDirectory: directory) && isLinkFree(name)
                ? name : nil
        }.sorted()
    }

    /// Closes every database open to serve requests. Stop the listener first; afterwards
    /// requests naming a database answer 503.
    public func close() throws {
        let databases = state.withLock { state in
            state.closed = true
            defer { state.opened = [:] }
            return state.opened.values.map(\.database)
        }
        for database in databases { try database.close() }
    }

    /// The number of databases open now.
    var openCount: Int { state.withLock { $0.opened.count } }

    // MARK: For the listener

    /// The collection at path segment `keyspace` (`db`, `db.collection` or
    /// `db.scope.collection`; a database name may hold dots), opening its database when it
    /// exists and is not open; nil when there is none. 400 for a segment longer than
    /// ``maximumKeyspaceLength`` bytes.
    func resolve(_ keyspace: String) throws -> ServedCollection? {
        guard keyspace.utf8.count <= ListenerDatabaseFolder.maximumKeyspaceLength else {
            throw HTTPFailure(
                status: .badRequest, error: "illegal_database_name",
                reason:
                    "The database name in the path is \(keyspace.utf8.count) bytes long; at most \(ListenerDatabaseFolder.maximumKeyspaceLength) name a database and collection."
            )
        }
        for (name, scope, collection) in ListenerDatabaseFolder.candidates(keyspace) {
            if let served = try served(keyspace, database: name, scope: scope, collection: collection) {
                return served
            }
        }
        return nil
    }

    /// The ways `keyspace` splits into a database, scope and collection: the whole segment
    /// (its default collection), then the database before the last dot (a collection of the
    /// default scope), then the database before the last two dots. Linear in its length.
    static func candidates(_ keyspace: String) -> [(String, String, String)] {
        let defaultScope = Database.defaultScopeName
        var found = [(keyspace, defaultScope, Database.defaultCollectionName)]
        guard let last = keyspace.lastIndex(of: ".") else { return found }
        let collection = String(keyspace[keyspace.index(after: last)...])
        found.append((String(keyspace[..<last]), defaultScope, collection))
        if let middle = keyspace[..<last].lastIndex(of: ".") {
            let scope = String(keyspace[keyspace.index(after: middle)..<last])
            found.append((String(keyspace[..<middle]), scope, collection))
        }
        return found.filter { name, scope, collection in
            [name, scope, collection].allSatisfy { !$0.isEmpty && $0.utf8.count <= maximumPartLength }
        }
    }

    /// Collection `scope.collection` of database `name`, opening the database when it exists.
    private func served(_ keyspace: String, database name: String, scope: String, collection: String) throws
        -> ServedCollection?
    {
        guard isServable(name) else { return nil }
        let found = try state.withLock { state -> (Database?, ServedCollection?) in
            try state.checkOpen()
            guard !state.deleting.contains(ExactName(name)), var entry = state.opened[ExactName(name)] else {
                return (nil, nil)
            }
            state.useClock += 1
            entry.lastUse = state.useClock
            state.opened[ExactName(name)] = entry
            return (entry.database, entry.served[ExactName(keyspace)])
        }
        if let served = found.1 { return served }
        let database: Database
        if let open = found.0 {
            database = open
        } else {
            guard Database.exists(withName: name, inDirectory: directory), isLinkFree(name) else { return nil }
            guard let open = try adopt(name, try openDatabase(name, configuration)) else { return nil }
            database = open
        }
        guard let found = try database.collection(name: collection, scope: scope) else { return nil }
        let isDefault = scope == Database.defaultScopeName && collection == Database.defaultCollectionName
        let served = ServedCollection(
            keyspace: isDefault ? name : "\(name).\(scope).\(collection)", collection: found,
            codec: AttachmentCodec(database: database))
        state.withLock { state in
            if var entry = state.opened[ExactName(name)], entry.database === database {
                entry.served[ExactName(keyspace)] = served
                state.opened[ExactName(name)] = entry
            }
        }
        return served
    }

    /// Keeps `database` (just opened as `name`) open, or the one another request opened
    /// meanwhile; nil when it is being deleted. Lets go of the least recently used database
    /// when more than ``maximumOpenDatabases`` are open.
    private func adopt(_ name: String, _ database: Database) throws -> Database? {
        var evicted: Entry?
        defer { _ = evicted }  // released after the lock: the last reference closes it
        return try state.withLock { state -> Database? in
            try state.checkOpen()
            guard !state.deleting.contains(ExactName(name)) else { return nil }
            state.useClock += 1
            if var entry = state.opened[ExactName(name)] {
                entry.lastUse = state.useClock
                state.opened[ExactName(name)] = entry
                return entry.database
            }
            state.opened[ExactName(name)] = Entry(database: database, lastUse: state.useClock)
            if state.opened.count > maximumOpenDatabases,
                let oldest = state.opened.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                evicted = state.opened.removeValue(forKey: oldest)
            }
            return database
        }
    }

    private var configuration: DatabaseConfiguration {
        DatabaseConfiguration(directory: directory, fullSync: fullSync)
    }

    /// Creates what path segment `keyspace` names: database `db`, or collection
    /// `scope.collection` (or `collection` of the default scope) of database `db` for
    /// `db.scope.collection` (`db.collection`), creating the database too when it is missing.
    /// That is how a replicator's keyspace for a named collection is made on demand, since
    /// Quire's replicator addresses collection `scope.collection` of `/db` as
    /// `/db.scope.collection`. 400 `illegal_database_name` for a database name CouchDB refuses
    /// (or one with `/`) or a scope or collection name Couchbase Lite refuses, 412
    /// `file_exists` when it exists, 403 when creating is not allowed. A creation that fails
    /// leaves no folder behind.
    func create(_ keyspace: String) throws {
        let parts = keyspace.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 3 else {
            throw HTTPFailure(
                status: .badRequest, error: "illegal_database_name",
                reason: "Name: '\(keyspace)'. A keyspace is db, db.collection or db.scope.collection.")
        }
        let name = parts[0]
        try ListenerDatabaseFolder.validateNewName(name)
        guard parts.count > 1 else { return try createDatabase(name) }
        let scope = parts.count == 3 ? parts[1] : Database.defaultScopeName
        let collection = parts[parts.count - 1]
        guard CollectionName.isValidFullName("\(scope).\(collection)") else {
            throw HTTPFailure(
                status: .badRequest, error: "illegal_database_name",
                reason:
                    "Name: '\(keyspace)'. Scope and collection names are 1 to 251 characters of A-Z, a-z, 0-9, _, - and %, not starting with _ or %."
            )
        }
        if Database.exists(withName: name, inDirectory: directory) {
            guard createsDatabases else {
                if try resolve(keyspace) != nil { throw ListenerDatabaseFolder.exists }
                throw ListenerDatabaseFolder.notCreating
            }
        } else {
            do {
                try createDatabase(name)
            } catch let failure as HTTPFailure where failure.status == .preconditionFailed {
                // Another request created the database meanwhile: add the collection to it.
            }
        }
        guard let served = try resolve(name) else { throw HTTPFailure.notFound("Database does not exist.") }
        try state.withLock { state in
            guard !state.creating.contains(ExactName(keyspace)) else { throw ListenerDatabaseFolder.exists }
            state.creating.insert(ExactName(keyspace))
        }
        defer { state.withLock { _ = $0.creating.remove(ExactName(keyspace)) } }
        let database = served.collection.database
        guard try database.collection(name: collection, scope: scope) == nil else {
            throw ListenerDatabaseFolder.exists
        }
        _ = try database.createCollection(name: collection, scope: scope)
    }

    private static let exists = HTTPFailure(
        status: .preconditionFailed, error: "file_exists",
        reason: "The database could not be created, the file already exists.")
    private static let notCreating = HTTPFailure(
        status: .forbidden, error: "forbidden", reason: "This server does not create databases.")

    /// Creates database `name` (already checked): 412 when it exists, 403 when creating is
    /// not allowed.
    private func createDatabase(_ name: String) throws {
        try state.withLock { state in
            try state.checkOpen()
            if state.opened[ExactName(name)] != nil || state.deleting.contains(ExactName(name))
                || state.creating.contains(ExactName(name))
                || Database.exists(withName: name, inDirectory: directory) || hasEntry(name)
            {
                throw ListenerDatabaseFolder.exists
            }
            guard createsDatabases else { throw ListenerDatabaseFolder.notCreating }
            state.creating.insert(ExactName(name))
        }
        defer { state.withLock { _ = $0.creating.remove(ExactName(name)) } }
        let folder = directory + "/" + name + ".quire"
        let existed = FileManager.default.fileExists(atPath: folder)
        let database: Database
        do {
            database = try openDatabase(name, configuration)
        } catch {
            if !existed { try? FileManager.default.removeItem(atPath: folder) }
            throw error
        }
        _ = try adopt(name, database)
    }

    /// Deletes database `name` and its files: 403 when deleting is not allowed, 404 when
    /// there is no such database. Requests already running on it finish first; later ones
    /// find no database. A longpoll or continuous `_changes` feed on it ends at its next
    /// wake-up (a heartbeat or its timeout), when reading the closed database fails.
    func delete(_ name: String) throws {
        guard allowsDelete else {
            throw HTTPFailure(status: .forbidden, error: "forbidden", reason: "This server does not delete databases.")
        }
        let database: Database? = try state.withLock { state in
            guard !state.closed, isServable(name), !state.deleting.contains(ExactName(name)),
                !state.creating.contains(ExactName(name)),
                state.opened[ExactName(name)] != nil
                    || (Database.exists(withName: name, inDirectory: directory) && isLinkFree(name))
            else { throw HTTPFailure.notFound("Database does not exist.") }
            state.deleting.insert(ExactName(name))
            return state.opened.removeValue(forKey: ExactName(name))?.database
        }
        defer { state.withLock { _ = $0.deleting.remove(ExactName(name)) } }
        if let database {
            try database.delete()
        } else {
            try Database.delete(withName: name, inDirectory: directory)
        }
    }

    /// Any database served, for the welcome message's UUID.
    var firstDatabase: Database? {
        state.withLock { $0.opened.min(by: { $0.key.text < $1.key.text })?.value.database }
    }

    // MARK: Names

    /// Whether `name` may be looked up in the folder: not empty, not hidden, no `/` or NUL.
    private func isServable(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\0")
    }

    /// Whether database `name`'s folder, and every entry directly in it, is not a symbolic
    /// link: a link could lead outside ``directory``, so a database reached through one is
    /// neither listed nor opened nor deleted (it is 404, as if absent).
    private func isLinkFree(_ name: String) -> Bool {
        let folder = directory + "/" + name + ".quire"
        guard !isSymbolicLink(folder), let entries = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return false }
        return !entries.contains { isSymbolicLink(folder + "/" + $0) }
    }

    /// Whether anything, a dangling link included, is at database `name`'s folder path.
    private func hasEntry(_ name: String) -> Bool {
        var info = stat()
        return lstat(directory + "/" + name + ".quire", &info) == 0
    }

    private func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// 400 `illegal_database_name` unless CouchDB would accept `name` and it has no `/`.
    static func validateNewName(_ name: String) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_$()+-/")
        guard let first = name.first, ("a"..."z").contains(first), name.allSatisfy(allowed.contains),
            name.count <= maximumNameLength
        else {
            throw HTTPFailure(
                status: .badRequest, error: "illegal_database_name",
                reason:
                    "Name: '\(name)'. Only lowercase characters (a-z), digits (0-9), and any of the characters _, $, (, ), +, -, and / are allowed. Must begin with a letter."
            )
        }
        guard !name.contains("/") else {
            throw HTTPFailure(
                status: .badRequest, error: "illegal_database_name",
                reason:
                    "Name: '\(name)'. Quire keeps each database in a folder of its own, so a name cannot contain '/'.")
        }
    }
}

/// A database name or keyspace compared by its exact UTF-8 bytes, as the file system on Linux
/// compares file names. Swift's `String` equality is canonical equivalence, so as a dictionary
/// key `café` spelt with a precomposed `é` (NFC) would find the entry of `café` spelt with `e`
/// and a combining accent (NFD), although on Linux they name two different folders.
private struct ExactName: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: ExactName, rhs: ExactName) -> Bool {
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        for byte in text.utf8 { hasher.combine(byte) }
    }
}
