import Foundation
import Quire

/// Every database in one folder, served by one ``URLEndpointListener`` the way CouchDB serves
/// its databases (`quire serve DIR`).
///
/// Each `<name>.quire` database in ``directory`` is at `/<name>` (its default collection)
/// and `/<name>.<scope>.<collection>` (its other collections); `GET /_all_dbs` lists them,
/// `GET /<name>` describes one. With ``createsDatabases``, `PUT /<name>` creates an empty
/// database; with ``allowsDelete``, `DELETE /<name>` deletes one and its files. A read-only
/// listener refuses both.
///
/// Databases are opened on first use and stay open until ``close()``; one created in the
/// folder by another process is found when a request names it. A new database's name must
/// be one CouchDB accepts (`^[a-z][a-z0-9_$()+/-]*$`, at most 238 characters) without `/`,
/// since each database is a folder of its own; other requests only ever match names of
/// databases that exist in ``directory``, so no request reaches a file outside it. Hidden
/// names (a leading `.`, such as an installer's scratch folders) are never served.
///
/// ```swift
/// let folder = try ListenerDatabaseFolder(directory: "/srv/quire", createsDatabases: true)
/// let listener = URLEndpointListener(config: URLEndpointListenerConfiguration(databaseFolder: folder, port: 4984))
/// try await listener.start()
/// // ... later
/// await listener.stop()
/// try folder.close()
/// ```
public final class ListenerDatabaseFolder: @unchecked Sendable {
    /// The folder holding the databases.
    public let directory: String
    /// Whether `PUT /<name>` creates a database.
    public let createsDatabases: Bool
    /// Whether `DELETE /<name>` deletes a database.
    public let allowsDelete: Bool

    /// The longest database name CouchDB accepts.
    static let maximumNameLength = 238

    private let lock = NSLock()
    /// The databases opened so far, by name.
    private var opened: [String: Database] = [:]
    /// The keyspaces of every opened database's collections.
    private var keyspaces = Keyspaces()
    /// Databases being deleted: neither reopened nor created until that ends.
    private var deleting: Set<String> = []
    private var closed = false

    /// Serves the databases of `directory`; notFound when it is not an existing folder.
    public init(directory: String, createsDatabases: Bool = false, allowsDelete: Bool = false) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw QuireError(.notFound, "'\(directory)' is not a folder")
        }
        self.directory = directory
        self.createsDatabases = createsDatabases
        self.allowsDelete = allowsDelete
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
            return isServable(name) && Database.exists(withName: name, inDirectory: directory) ? name : nil
        }.sorted()
    }

    /// Closes every database opened to serve requests. Stop the listener first; afterwards
    /// requests naming a database answer 503.
    public func close() throws {
        let databases = lock.withLock {
            closed = true
            keyspaces = Keyspaces()
            defer { opened = [:] }
            return Array(opened.values)
        }
        for database in databases { try database.close() }
    }

    // MARK: For the listener

    /// The collection at path segment `keyspace`, opening its database when it exists and
    /// is not open yet; nil when there is none.
    func resolve(_ keyspace: String) throws -> ServedCollection? {
        try lock.withLock {
            guard !closed else {
                throw HTTPFailure(status: .serviceUnavailable, error: "unavailable", reason: "The server is stopping.")
            }
            if let served = keyspaces.resolve(keyspace) { return served }
            // The database is the whole segment, or the part before one of its dots (a
            // database name may hold dots). Those that exist are opened, and the keyspaces
            // rebuilt, which also picks up collections created since.
            var candidates = [keyspace]
            var index = keyspace.endIndex
            while let dot = keyspace[..<index].lastIndex(of: ".") {
                candidates.append(String(keyspace[..<dot]))
                index = dot
            }
            let present = candidates.filter {
                isServable($0) && !deleting.contains($0) && Database.exists(withName: $0, inDirectory: directory)
            }
            guard !present.isEmpty else { return nil }
            for name in present where opened[name] == nil {
                opened[name] = try Database(name: name, config: DatabaseConfiguration(directory: directory))
            }
            keyspaces = try rebuiltKeyspaces()
            return keyspaces.resolve(keyspace)
        }
    }

    /// Creates database `name`: 400 `illegal_database_name` for a name CouchDB refuses (or
    /// one with `/`), 412 `file_exists` when it exists, 403 when creating is not allowed.
    func create(_ name: String) throws {
        try ListenerDatabaseFolder.validateNewName(name)
        try lock.withLock {
            guard !closed else {
                throw HTTPFailure(status: .serviceUnavailable, error: "unavailable", reason: "The server is stopping.")
            }
            if opened[name] != nil || deleting.contains(name) || Database.exists(withName: name, inDirectory: directory)
            {
                throw HTTPFailure(
                    status: .preconditionFailed, error: "file_exists",
                    reason: "The database could not be created, the file already exists.")
            }
            guard createsDatabases else {
                throw HTTPFailure(
                    status: .forbidden, error: "forbidden", reason: "This server does not create databases.")
            }
            let database = try Database(name: name, config: DatabaseConfiguration(directory: directory))
            opened[name] = database
            keyspaces = try rebuiltKeyspaces()
        }
    }

    /// Deletes database `name` and its files: 403 when deleting is not allowed, 404 when
    /// there is no such database. Requests already running on it finish first; later ones
    /// find no database. A longpoll or continuous `_changes` feed on it ends at its next
    /// wake-up (a heartbeat or its timeout), when reading the closed database fails.
    func delete(_ name: String) throws {
        guard allowsDelete else {
            throw HTTPFailure(status: .forbidden, error: "forbidden", reason: "This server does not delete databases.")
        }
        let database: Database? = try lock.withLock {
            guard !closed, isServable(name), !deleting.contains(name),
                opened[name] != nil || Database.exists(withName: name, inDirectory: directory)
            else { throw HTTPFailure.notFound("Database does not exist.") }
            deleting.insert(name)
            let database = opened.removeValue(forKey: name)
            keyspaces = (try? rebuiltKeyspaces()) ?? Keyspaces()
            return database
        }
        defer { lock.withLock { _ = deleting.remove(name) } }
        if let database {
            try database.delete()
        } else {
            try Database.delete(withName: name, inDirectory: directory)
        }
    }

    /// Any keyspace served, for the welcome message's UUID.
    var firstDatabase: Database? {
        lock.withLock { keyspaces.canonical.first?.collection.database }
    }

    // MARK: Names

    /// Whether `name` may be looked up in the folder: not empty, not hidden, no `/` or NUL.
    private func isServable(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\0")
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

    /// The keyspaces of every opened database, in name order; a database whose keyspaces
    /// would collide with another's is left out (caller holds `lock`).
    private func rebuiltKeyspaces() throws -> Keyspaces {
        var collections: [Collection] = []
        var built = Keyspaces()
        for name in opened.keys.sorted() {
            guard let database = opened[name] else { continue }
            let all = try database.scopes().flatMap { try $0.collections() }
            let isDefault = { (collection: Collection) in
                collection.scope.name == Database.defaultScopeName && collection.name == Database.defaultCollectionName
            }
            let ordered = all.filter(isDefault) + all.filter { !isDefault($0) }
            if let next = try? Keyspaces(collections: collections + ordered) {
                collections += ordered
                built = next
            }
        }
        return built
    }
}
