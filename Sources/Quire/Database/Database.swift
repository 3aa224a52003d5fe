import Foundation

/// A Quire database: a light, thread-safe handle onto one shared core per file.
///
/// Two ways to get one, with one behaviour:
/// - ``init(name:config:)`` opens (or creates) `<directory>/<name>.quire/` at once, the way
///   Couchbase Lite's `Database` does;
/// - ``init(path:)`` and ``init(fileURL:)`` never fail and open nothing: the file and the
///   SQLite handles appear at the first operation, the way WCDB's `Database` does.
///
/// Every object whose path resolves to the same file shares one core: one writer connection
/// and a pool of reader connections in WAL mode, the tag, and the blockade.
public final class Database: Sendable {
    /// The name of the default scope, `_default`.
    public static let defaultScopeName = "_default"
    /// The name of the default collection, `_default`.
    public static let defaultCollectionName = "_default"
    /// The file name of the SQLite file inside a `<name>.quire/` folder.
    static let fileName = "db.sqlite3"
    /// The extension of database folders.
    static let folderExtension = "quire"

    let core: DatabaseCore
    /// The database's name: the folder's name without `.quire`, or the file's name without
    /// its extension for a database opened by path.
    public let name: String
    /// The configuration the database was opened with.
    public let config: DatabaseConfiguration
    /// The folder of a named database (`<directory>/<name>.quire`), nil for one opened by path.
    let folder: String?
    /// The folder of this database's blob files, made once: building a file URL costs more
    /// than reading a small document, and every document read hands it to its content.
    let blobStore: BlobStore
    private let closed = Locked(false)
    /// The listeners and replicators working on this object, stopped when it closes or is deleted.
    package let users = DatabaseUsers()

    // MARK: Opening (WCDB style)

    /// A handle on the database file at `path`. Nothing is opened or created until the first
    /// operation.
    public init(path: String) {
        core = CoreRegistry.shared.core(forPath: path, migrator: StoreSchema.migrator)
        name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        config = DatabaseConfiguration(directory: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        folder = nil
        blobStore = Database.blobStore(folder: nil, filePath: core.path)
        core.attach()
    }

    /// A handle on the database file at `fileURL`. Nothing is opened until the first operation.
    public convenience init(fileURL: URL) {
        self.init(path: fileURL.path)
    }

    /// A handle on the existing core that carries `tag`; notFound when no live database has it.
    ///
    /// - Throws: ``QuireError/Code/notFound`` when no open database carries `tag`.
    public init(tag: Int) throws {
        guard let core = CoreRegistry.shared.core(withTag: tag) else {
            throw QuireError(.notFound, "no open database has tag \(tag)")
        }
        self.core = core
        name = URL(fileURLWithPath: core.path).deletingPathExtension().lastPathComponent
        config = DatabaseConfiguration(directory: URL(fileURLWithPath: core.path).deletingLastPathComponent().path)
        folder = nil
        blobStore = Database.blobStore(folder: nil, filePath: core.path)
        core.attach()
    }

    // MARK: Opening (Couchbase Lite style)

    /// Opens or creates the database `name` in `config.directory` (created on demand), at once.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for an empty name or one with a `/`; a POSIX
    ///   error when the folder cannot be created; ``QuireError/Code/unreadableDatabase`` for a file
    ///   that is not a database, ``QuireError/Code/databaseTooNew`` for one written by a newer
    ///   Quire; other SQLite failures in the `.sqlite` domain (``QuireError/Code/cantOpenFile``,
    ///   ``QuireError/Code/ioError`` ...).
    public convenience init(name: String, config: DatabaseConfiguration = DatabaseConfiguration()) throws {
        try self.init(name: name, config: config, migrator: StoreSchema.migrator)
    }

    /// Opens or creates the database `name` with the schema of `migrator` (tests make files
    /// of an earlier schema version with a prefix of ``StoreSchema/migrator``).
    init(name: String, config: DatabaseConfiguration, migrator: SchemaMigrator) throws {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw QuireError(
                .invalidParameter, "invalid database name '\(name)': it must be non-empty and contain no '/'")
        }
        let folder = Database.folderPath(name: name, directory: config.directory)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                atPath: folder + "/Attachments", withIntermediateDirectories: true)
        } catch {
            let code = (error as NSError).code
            throw QuireError.posix(
                Int32(code == NSFileWriteNoPermissionError ? Int(EACCES) : Int(EIO)),
                "cannot create database folder \(folder): \(error.localizedDescription)")
        }
        self.name = name
        self.config = config
        self.folder = folder
        core = CoreRegistry.shared.core(forPath: folder + "/" + Database.fileName, migrator: migrator)
        blobStore = Database.blobStore(folder: folder, filePath: core.path)
        if !core.isOpened {
            core.options = Connection.Options(fullSync: config.fullSync)
        }
        core.attach()
        do {
            try core.open()
        } catch {
            try? core.detach()
            closed.withLock { $0 = true }
            throw error
        }
        core.startHousekeeping(clock: config.clock)
        Log.write(.database, .info, "Opened database '\(name)' in \(folder)")
    }

    deinit {
        if !closed.withLock({ $0 }) { try? core.detach() }
    }

    /// `<folder>/Attachments` for a named database, `<file>-attachments` for one opened by path.
    static func blobStore(folder: String?, filePath: String) -> BlobStore {
        let directory = folder.map { $0 + "/Attachments" } ?? (filePath + "-attachments")
        return BlobStore(directory: URL(fileURLWithPath: directory, isDirectory: true))
    }

    static func folderPath(name: String, directory: String) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent("\(name).\(folderExtension)").path
    }

    // MARK: State

    /// The path of a named database's folder (with a trailing `/`), or the file path of a
    /// database opened by path.
    public var path: String {
        folder.map { $0 + "/" } ?? core.path
    }

    /// The path of the SQLite file.
    public var filePath: String { core.path }

    /// The tag of the shared core, seen and set by every object on the same file.
    public var tag: Int? {
        get { core.tag }
        set { core.tag = newValue }
    }

    /// Tries to open the database now: false when it cannot be opened (a missing directory,
    /// an unwritable place, a file that is not a database).
    public var canOpen: Bool {
        guard !isClosedObject else { return false }
        do {
            try core.open()
            return true
        } catch {
            return false
        }
    }

    /// Whether the core holds at least one open SQLite handle.
    public var isOpened: Bool { core.isOpened }

    /// Whether some thread has blockaded the database.
    public var isBlockaded: Bool { core.isBlockaded }

    var isClosedObject: Bool {
        closed.withLock { $0 }
    }

    /// Throws notOpen when this object was closed or its database deleted.
    func checkOpen() throws {
        if isClosedObject {
            throw QuireError(.notOpen, "database '\(name)' is closed")
        }
    }

    // MARK: Access for the layers above

    /// Runs `body` with a reader connection inside one read transaction: one consistent
    /// snapshot that never waits for the writer. On the thread that is inside ``write(_:)``,
    /// it uses the writer, so it sees that thread's uncommitted changes.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` when this object was closed; SQLite failures in the
    ///   `.sqlite` domain; and whatever `body` throws.
    package func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try checkOpen()
        return try core.read(body)
    }

    /// ``read(_:)`` for a body that runs exactly one statement, stepped and reset before it
    /// returns: the statement's own implicit transaction is the snapshot.
    func readSingleStatement<T>(_ body: (Connection) throws -> T) throws -> T {
        try checkOpen()
        return try core.read(singleStatement: true, body)
    }

    /// Runs `body` with the writer as one transaction (`BEGIN IMMEDIATE`): committed when it
    /// returns, rolled back when it throws. Nested calls on the same thread join the outer
    /// transaction through a savepoint.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` when this object was closed; SQLite failures in the
    ///   `.sqlite` domain (``QuireError/Code/busy`` when another process holds the file's write
    ///   lock past the timeout, ``QuireError/Code/notWriteable`` for a read-only file); and
    ///   whatever `body` throws, after the rollback.
    package func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try checkOpen()
        return try core.write(body)
    }

    /// ``write(_:)`` for a body whose only change is one SQL statement: nested in a batch, it
    /// joins the batch's transaction without a savepoint (see ``DatabaseCore/write(singleStatement:_:)``).
    func writeSingleStatement<T>(_ body: (Connection) throws -> T) throws -> T {
        try checkOpen()
        return try core.write(singleStatement: true, body)
    }

    // MARK: Blockade and close (WCDB)

    /// Stops operations from other threads until ``unblockade()``; waits for operations
    /// already running to finish. The blockading thread can go on working, and may close.
    public func blockade() {
        core.blockade()
    }

    /// Lifts the blockade.
    public func unblockade() {
        core.unblockade()
    }

    /// Blockades, waits until every handle is back, closes them all, runs `onClosed` (the
    /// file may be moved, replaced or deleted there), then lifts the blockade. Later
    /// operations, on any object of this path, reopen lazily.
    ///
    /// Throws instead of deadlocking when called from a thread that holds a handle of this
    /// database or is inside one of its transactions; that is why it is `throws` where WCDB's
    /// is `rethrows`: it can fail even when `onClosed` cannot.
    ///
    /// - Throws: ``QuireError/Code/transactionNotClosed`` from inside one of this database's writes
    ///   or batches, ``QuireError/Code/busy`` from inside one of its reads; whatever `onClosed`
    ///   throws.
    public func close(onClosed: () throws -> Void) throws {
        try core.closeHandles(onClosed: onClosed)
    }

    /// Ends this object's use: afterwards it (and its scopes and collections) throw notOpen.
    /// The core's handles close when no open object uses them any more.
    ///
    /// Listeners and replicators working on this object's collections are told to stop, as
    /// in Couchbase Lite: a listener stops listening at once (its port and URLs are nil when
    /// this returns) and finishes its shutdown in the background; a replicator turns
    /// stopped, without an error, once its work in flight is abandoned. ``delete()`` stops
    /// them too.
    ///
    /// - Throws: ``QuireError/Code/transactionNotClosed`` from inside one of this database's writes
    ///   or batches, ``QuireError/Code/busy`` from inside one of its reads.
    public func close() throws {
        let proceed = try closed.withLock { closed in
            if closed { return false }
            if core.callerHoldsHandle {
                throw QuireError(
                    core.callerIsWriting ? .transactionNotClosed : .busy,
                    "cannot close database '\(name)' from inside one of its own reads, writes or batches")
            }
            closed = true
            return true
        }
        guard proceed else { return }
        users.stopAll()
        core.changes.removeAll(ownedBy: ObjectIdentifier(self))
        try core.detach()
        Log.write(.database, .info, "Closed database '\(name)'")
    }

    /// Closes this core's idle handles; work goes on afterwards with new ones.
    public func purgeFreeHandles() {
        core.purgeFreeHandles()
    }

    /// Closes the idle handles of every database in the process.
    public static func purgeFreeHandlesInAllDatabases() {
        CoreRegistry.shared.allCores().forEach { $0.purgeFreeHandles() }
    }

    // MARK: Deleting and finding databases (Couchbase Lite)

    /// Closes and deletes this database's files; afterwards this object, its scopes and its
    /// collections throw notOpen. Busy, as in Couchbase Lite, while another open `Database`
    /// object uses the same file: close those first. From inside one of its own batches or
    /// writes it is transactionNotClosed, as Couchbase Lite's `testDeleteThenCallInBatch`
    /// expects (busy from inside a read).
    ///
    /// - Throws: ``QuireError/Code/notOpen`` when this object was closed; ``QuireError/Code/busy``
    ///   while another object uses the file or from inside a read;
    ///   ``QuireError/Code/transactionNotClosed`` from inside a write or batch; a POSIX error when
    ///   the files cannot be removed.
    public func delete() throws {
        try checkOpen()
        if core.callerHoldsHandle {
            if core.callerIsWriting {
                throw QuireError(
                    .transactionNotClosed,
                    "cannot delete database '\(name)' from inside one of its own batches or writes")
            }
            throw QuireError(.busy, "cannot delete database '\(name)' from inside one of its own reads")
        }
        let others = core.attachedObjectCount - 1
        if others > 0 {
            throw QuireError(
                .busy,
                "cannot delete database '\(name)': \(others) other open Database object(s) use it; close them first")
        }
        closed.withLock { $0 = true }
        users.stopAll()
        core.changes.removeAll(ownedBy: ObjectIdentifier(self))
        let folder = self.folder
        let file = core.path
        try core.closeHandles {
            try Database.removeFiles(folder: folder, file: file)
        }
        try core.detach()
    }

    /// Deletes the database `name` in `directory`; busy while some object has it open.
    /// Deleting a database that does not exist does nothing, as in Couchbase Lite on Apple
    /// platforms (its Objective-C and .NET `testDeleteNonExistingDB`).
    ///
    /// - Throws: ``QuireError/Code/busy`` while some object has the database open; a POSIX error
    ///   when its files cannot be removed.
    public static func delete(withName name: String, inDirectory directory: String? = nil) throws {
        let folder = folderPath(name: name, directory: directory ?? DatabaseConfiguration.defaultDirectory)
        guard FileManager.default.fileExists(atPath: folder) else { return }
        let file = folder + "/" + fileName
        let canonical = CoreRegistry.canonicalPath(file)
        if let core = CoreRegistry.shared.allCores().first(where: { $0.path == canonical }),
            core.isOpened || core.attachedObjectCount > 0
        {
            throw QuireError(.busy, "database '\(name)' is open; close it before deleting it")
        }
        try removeFiles(folder: folder, file: file)
    }

    /// Whether a database `name` exists in `directory`.
    public static func exists(withName name: String, inDirectory directory: String? = nil) -> Bool {
        let folder = folderPath(name: name, directory: directory ?? DatabaseConfiguration.defaultDirectory)
        return FileManager.default.fileExists(atPath: folder + "/" + fileName)
    }

    private static func removeFiles(folder: String?, file: String) throws {
        do {
            if let folder {
                if FileManager.default.fileExists(atPath: folder) {
                    try FileManager.default.removeItem(atPath: folder)
                }
            } else {
                for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: file + suffix) {
                    try FileManager.default.removeItem(atPath: file + suffix)
                }
            }
        } catch {
            throw QuireError.posix(EIO, "cannot delete \(folder ?? file): \(error.localizedDescription)")
        }
    }

    // MARK: Identity

    /// The database's public UUID, created once and kept in the file.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` when this object was closed; SQLite failures in the
    ///   `.sqlite` domain.
    package func publicUUID() throws -> String {
        try info("publicUUID") ?? ""
    }

    /// The database's private UUID, which replication checkpoints are derived from.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` when this object was closed; SQLite failures in the
    ///   `.sqlite` domain.
    package func privateUUID() throws -> String {
        try info("privateUUID") ?? ""
    }

    func info(_ key: String) throws -> String? {
        try read { connection in
            try connection.scalarText("SELECT value FROM quire_info WHERE key = ?", [.text(key)])
        }
    }
}
