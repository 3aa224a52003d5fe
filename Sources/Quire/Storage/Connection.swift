import CSQLite
import Foundation

/// One SQLite connection (`sqlite3*`) with its own cache of prepared statements.
///
/// A connection is handed to one thread at a time by the database core, inside `read` and
/// `write` closures; it must not escape them. That hand-over is what keeps accesses to its
/// variables exclusive, so they skip Swift's dynamic exclusivity checks
/// (`@exclusivity(unchecked)`), which the statement cache and sequence maps paid on every
/// save and read.
package final class Connection {
    /// How a connection is used: writers create the file and take write locks, readers only read.
    package enum Role: Sendable {
        /// The single writer of a core.
        case writer
        /// One of the pooled readers.
        case reader
    }

    /// Settings applied to every connection of a core.
    package struct Options: Sendable, Equatable {
        /// `synchronous=FULL` instead of `NORMAL`: every commit survives power loss.
        package var fullSync: Bool = false
        /// How long SQLite waits for another process's lock before giving up, in milliseconds.
        package var busyTimeoutMilliseconds: Int32 = 10_000
        /// Open the file with `SQLITE_OPEN_READONLY` and `query_only`: nothing is created,
        /// and neither the journal mode nor the file changes.
        package var readOnly: Bool = false

        /// Default options: WAL, `synchronous=NORMAL`, a ten-second busy timeout, read-write.
        package init(fullSync: Bool = false, busyTimeoutMilliseconds: Int32 = 10_000, readOnly: Bool = false) {
            self.fullSync = fullSync
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.readOnly = readOnly
        }
    }

    let handle: OpaquePointer
    /// The file this connection has open.
    package let path: String
    /// Whether this is the writer or a reader.
    package let role: Role
    /// Keyed by the SQL's bytes (see ``ByteExactString``).
    @exclusivity(unchecked) private var statements: [ByteExactString: Statement] = [:]
    /// Statements of the hot paths, found by the identity of their key, not by hashing SQL
    /// text (a few hundred bytes for an upsert). The entry keeps its key alive, so an
    /// identity is never reused while cached.
    @exclusivity(unchecked) private var keyedStatements: [ObjectIdentifier: (key: StatementKey, statement: Statement)] =
        [:]
    @exclusivity(unchecked) private var savepointDepth = 0
    /// The thread that last used this connection, for the core's reader pool.
    @exclusivity(unchecked) var lastUser: ThreadID?
    /// A point read's statement left on its row instead of reset, which keeps this reader's
    /// read transaction, and its WAL reader slot, open after the read (see
    /// ``leaveReadOpen(_:)``); nil when none is.
    @exclusivity(unchecked) private var lingeringStatement: Statement?
    /// When the lingering read was handed back to the pool (`DispatchTime` uptime in
    /// nanoseconds), for the core's sweep of idle ones.
    @exclusivity(unchecked) var lingeringSince: UInt64 = 0
    /// True inside ``transaction(_:)``, where ``knownSequences`` may be used.
    @exclusivity(unchecked) private(set) var isManagingTransaction = false
    /// The last committed collection sequences, by collection id, as of ``knownDataVersion``
    /// and this connection's own commits since (see `Connection+Sequences.swift`).
    @exclusivity(unchecked) var knownSequences = SequenceMap()
    /// The last sequences handed out by the open transaction.
    @exclusivity(unchecked) var pendingSequences = SequenceMap()
    /// The highest sequences the open transaction wrote.
    @exclusivity(unchecked) var writtenSequences = SequenceMap()
    /// `PRAGMA data_version` when ``knownSequences`` was last checked.
    @exclusivity(unchecked) var knownDataVersion: Int64 = -1
    /// Whether the open transaction has checked ``knownSequences`` yet.
    @exclusivity(unchecked) var knownSequencesChecked = false

    /// Opens a connection. Writers may create the file; readers require it to exist.
    init(path: String, role: Role, options: Options) throws {
        _ = Connection.processSettings
        var opened: OpaquePointer?
        var flags = (options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
        if role == .writer && !options.readOnly { flags |= SQLITE_OPEN_CREATE }
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        guard result == SQLITE_OK, let opened else {
            let error = QuireError.sqlite(result, connection: opened, statement: nil)
            if let opened { sqlite3_close_v2(opened) }
            throw QuireError(
                error.code, "cannot open database at \(path): \(error.message)", domain: .sqlite,
                underlyingCode: error.underlyingCode, extendedCode: error.extendedCode)
        }
        self.handle = opened
        self.path = path
        self.role = role
        sqlite3_extended_result_codes(opened, 1)
        do {
            try FullTextExtensions.register(on: opened)
            try configure(options)
        } catch var error as QuireError {
            // close() marks the handle closed, so deinit (which runs for a throwing init of a
            // fully initialised class) does not close it twice.
            close()
            error.message = "cannot open database at \(path): \(error.message)"
            throw error
        }
    }

    deinit {
        close()
    }

    /// SQLite settings for the whole process, applied once before its first connection.
    ///
    /// Memory statistics off: with them on, every allocation inside SQLite takes one global
    /// mutex, and threads reading through separate connections queue on it (a waiting thread
    /// sleeps, and may take hundreds of microseconds to wake). Quire reads none of the
    /// statistics. When SQLite is already in use in the process (another library opened it
    /// first), the setting cannot change any more, and SQLite keeps its own.
    private static let processSettings: Void = {
        _ = quire_sqlite_config_memstatus(0)
    }()

    @exclusivity(unchecked) private var isClosed = false

    /// Bytes of the file a reader maps into memory (`PRAGMA mmap_size`), as LiteCore's
    /// `SQLiteDataFile` does (50 MB, off on macOS for a file-corruption hazard it names): a
    /// page read from the map needs no `pread` call and no copy into the page cache, which
    /// counts most for documents of a few KB that span overflow pages. Readers only: the
    /// writer keeps SQLite's page cache, so a batch save holds no more memory than before.
    #if os(macOS)
        static let readerMapSize = 0
    #else
        static let readerMapSize = 50 * 1024 * 1024
    #endif

    /// The page size of the files Quire creates (`PRAGMA page_size`, set before the first
    /// table): 8 KB, where SQLite's default is 4 KB. A row stays on its page up to about the
    /// page's size, so with 4 KB pages a document of 2-3 KB fills a page alone and leaves a
    /// third of it empty. Measured with `bench-probe` (Benchmarks/STORAGE_LAYOUT.md, "Page
    /// size"): 10,000 hotels take 13% less space and save in 24% less time, an unindexed query
    /// of 100,000 people runs 13% faster and a value index builds 7-17% faster; a save that is
    /// its own transaction costs about 20% more, since its commit writes whole pages to the WAL.
    static let newFilePageSize = 8192

    /// Finalizes cached statements and closes the handle.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        lingeringStatement = nil
        statements.removeAll()
        keyedStatements.removeAll()
        sqlite3_close_v2(handle)
    }

    private func configure(_ options: Options) throws {
        sqlite3_busy_timeout(handle, options.busyTimeoutMilliseconds)
        if role == .reader || options.readOnly {
            try execute("PRAGMA mmap_size=\(Self.readerMapSize)")
        }
        // A pooled reader opens after the writer, which has checked the same file.
        if role == .writer || options.readOnly { try requireUTF8() }
        if options.readOnly {
            try execute("PRAGMA query_only=1")
            // Reading an index (`PRAGMA integrity_check`, a query) evaluates its expressions.
            try SQLFunctions.register(on: self)
            return
        }
        if role == .writer {
            // A new file gets pages of `newFilePageSize`; an existing one keeps its own.
            if try scalarInt("PRAGMA page_count") == 0 { try execute("PRAGMA page_size=\(Self.newFilePageSize)") }
            let mode = try scalarText("PRAGMA journal_mode=WAL")
            if mode?.lowercased() != "wal" {
                throw QuireError(
                    .cantOpenFile, "cannot switch \(path) to WAL mode (journal mode is \(mode ?? "unknown"))")
            }
        } else {
            try execute("PRAGMA query_only=1")
        }
        try execute("PRAGMA synchronous=\(options.fullSync ? "FULL" : "NORMAL")")
        try execute("PRAGMA foreign_keys=OFF")
        // SQLite's default, and Couchbase Lite's: a sort (an index build, GROUP BY, ORDER BY)
        // packs its keys into one growing buffer and spills it to a temporary file past the
        // page cache's size, where `MEMORY` allocates every key on its own and never spills.
        // Measured on 100,000 people: a value index builds in 43 ms against 46 (`bench-probe
        // create-index`), a GROUP BY of a property of every body in 115 ms against 150.
        try execute("PRAGMA temp_store=FILE")
        // Queries, indexes and full-text triggers call these; every connection needs them,
        // writers included, because index expressions run on every write.
        try SQLFunctions.register(on: self)
    }

    /// Refuses a file whose text is not UTF-8. Quire reads stored text as the bytes SQLite holds
    /// (``Statement/text(at:)``, `quire_extract`), which are UTF-8 in every file it creates; a
    /// file made elsewhere in UTF-16 would give those readers UTF-16 bytes. Reading the encoding
    /// reads the header, so a file that is not a database fails here too. The writer and
    /// read-only connections check; the pool's readers open only after the writer.
    private func requireUTF8() throws {
        // `sqlite3_column_text`, which converts to UTF-8: the name comes in the file's encoding.
        let statement = try prepare("PRAGMA encoding")
        guard try statement.step(), let name = sqlite3_column_text(statement.handle, 0) else { return }
        let encoding = String(cString: name)
        guard encoding == "UTF-8" else {
            throw QuireError(
                .wrongFormat, "\(path) is a database in \(encoding); Quire reads and writes UTF-8 databases only")
        }
    }

    // MARK: Statements

    /// Runs one or more SQL statements that take no arguments and return no rows.
    package func execute(_ sql: String) throws {
        endLingeringRead()
        var errorMessage: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if result != SQLITE_OK {
            var error = QuireError.sqlite(result, connection: handle, statement: sql)
            if let errorMessage {
                error.message = String(cString: errorMessage)
                sqlite3_free(errorMessage)
            }
            throw error
        }
    }

    /// Prepares a statement that is not cached (for one-off SQL).
    package func prepare(_ sql: String) throws -> Statement {
        endLingeringRead()
        return try Statement(connection: self, sql: sql)
    }

    /// A prepared statement from this connection's cache, reset and ready to bind.
    package func cachedStatement(_ sql: String) throws -> Statement {
        endLingeringRead()
        let key = ByteExactString(sql)
        if let statement = statements[key] {
            statement.reset()
            return statement
        }
        let statement = try Statement(connection: self, sql: sql)
        statements[key] = statement
        return statement
    }

    /// A prepared statement for `key`'s SQL from this connection's cache, reset and ready to
    /// bind.
    func cachedStatement(_ key: StatementKey) throws -> Statement {
        let statement = try preparedStatement(key)
        statement.reset()
        return statement
    }

    /// The prepared statement for `key`'s SQL from this connection's cache, as the last user
    /// left it: for a caller that binds every parameter and resets the statement (clearing its
    /// bindings) before it returns, as every user of `key` does, so that a read does not reset
    /// a statement that is already reset. (Binding a statement left mid-row fails with
    /// SQLITE_MISUSE rather than reading stale values.)
    func preparedStatement(_ key: StatementKey) throws -> Statement {
        endLingeringRead()
        // Only the statement is taken out: the key is shared by every connection, and
        // retaining it at every read made threads on separate connections write one cache line.
        if let statement = keyedStatements[ObjectIdentifier(key)]?.statement { return statement }
        let statement = try Statement(connection: self, sql: key.sql)
        keyedStatements[ObjectIdentifier(key)] = (key, statement)
        return statement
    }

    // MARK: Lingering reads

    /// Ends a point read on a reader without ending its read transaction: `statement`, stepped
    /// to its row, is left there, its bindings cleared (so nothing points at memory bound in
    /// place), until this connection is used again or the core's sweep ends it.
    ///
    /// Why: SQLite takes or drops the file lock of a WAL reader slot (an `fcntl` call made
    /// under the mutex of the WAL index, shared by every connection of the process) only when
    /// the first connection of the process takes the slot or the last one leaves it. Two
    /// threads whose short reads rarely overlap hand the slot back and forth, and each waits
    /// on that mutex while the other's `fcntl` runs; a read left open keeps the slot taken
    /// between reads, as two threads reading without pause do. The snapshot it holds is never
    /// read again: the next read on this connection ends it first and starts a new one.
    ///
    /// Only readers leave reads open; a writer's statement is reset at once.
    func leaveReadOpen(_ statement: Statement) {
        guard role == .reader else {
            statement.reset()
            return
        }
        if lingeringStatement !== statement { endLingeringRead() }
        statement.clearBindingsKeepingRow()
        lingeringStatement = statement
    }

    /// Whether a read left open by ``leaveReadOpen(_:)`` is still open.
    var hasLingeringRead: Bool { lingeringStatement != nil }

    /// Ends the read left open by ``leaveReadOpen(_:)``, if any: its statement is reset, which
    /// ends its read transaction. Every use of the connection (each way it prepares or runs
    /// SQL) does this first, so a read never runs in the snapshot of the one before.
    func endLingeringRead() {
        guard let statement = lingeringStatement else { return }
        lingeringStatement = nil
        statement.resetKeepingBindings()
    }

    /// Forgets cached statements, e.g. after tables they refer to were dropped.
    package func clearStatementCache() {
        endLingeringRead()
        statements.removeAll()
        keyedStatements.removeAll()
    }

    /// The number of statements in the cache.
    package var cachedStatementCount: Int { statements.count + keyedStatements.count }

    /// Runs a cached statement with arguments, ignoring rows.
    package func run(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        try statement.run()
    }

    /// Runs a cached statement and maps each row.
    package func query<T>(_ sql: String, _ arguments: [SQLiteValue] = [], row: (Statement) throws -> T) throws -> [T] {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [T] = []
        while try statement.step() {
            rows.append(try row(statement))
        }
        return rows
    }

    /// The first column of the first row, or nil when there is no row.
    package func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        return try statement.step() ? statement.value(at: 0) : nil
    }

    /// The first column of the first row as an integer, or nil.
    package func scalarInt(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int64? {
        if case .integer(let value)? = try scalar(sql, arguments) { return value }
        return nil
    }

    /// The first column of the first row as text, or nil.
    package func scalarText(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> String? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        return try statement.step() ? statement.text(at: 0) : nil
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the last inserted row.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether a transaction is open on this connection.
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Whether this connection's open transaction may have changed the database (holds the
    /// write lock): what it reads may include changes not yet committed.
    var isInWriteTransaction: Bool { sqlite3_txn_state(handle, nil) == SQLITE_TXN_WRITE }

    // MARK: Transactions

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` for writers (so the write lock is
    /// taken up front and a busy error cannot come at commit), deferred for readers. Commits
    /// when `body` returns, rolls back and rethrows when it throws.
    ///
    /// `BEGIN` and `COMMIT` run as cached prepared statements: every read and every save is a
    /// transaction, and parsing their SQL again each time cost more than a point read.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try runCached(role == .writer ? StatementKey.beginImmediate : StatementKey.beginDeferred)
        isManagingTransaction = true
        knownSequencesChecked = false
        pendingSequences.removeAll(keepingCapacity: true)
        writtenSequences.removeAll(keepingCapacity: true)
        defer { isManagingTransaction = false }
        let value: T
        do {
            value = try body()
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        do {
            try runCached(StatementKey.commit)
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        commitWrittenSequences()
        return value
    }

    /// Runs `body` inside a savepoint, so that a failure undoes only its own changes.
    func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let sql = SavepointSQL.at(depth: savepointDepth)
        try runCached(sql.begin)
        do {
            let value = try body()
            try runCached(sql.release)
            return value
        } catch {
            try? execute(sql.rollback)
            throw error
        }
    }

    /// Runs a cached statement that takes no arguments and returns no rows.
    private func runCached(_ key: StatementKey) throws {
        try cachedStatement(key).run()
    }
}

/// The SQL of the savepoints nested writes use, `quire_sp<depth>`, made once per depth rather
/// than once per nested write.
private struct SavepointSQL {
    let begin: StatementKey
    let release: StatementKey
    let rollback: String

    private init(depth: Int) {
        begin = StatementKey("SAVEPOINT quire_sp\(depth)")
        release = StatementKey("RELEASE quire_sp\(depth)")
        rollback = "ROLLBACK TO quire_sp\(depth); RELEASE quire_sp\(depth)"
    }

    private static let common = (1...8).map(SavepointSQL.init(depth:))

    static func at(depth: Int) -> SavepointSQL {
        depth <= common.count ? common[depth - 1] : SavepointSQL(depth: depth)
    }
}

/// SQL that hot paths run through ``Connection/cachedStatement(_:)-(StatementKey)``: made
/// once (a static, or a property of a long-lived object) and found again by identity.
final class StatementKey: Sendable {
    /// The statement's SQL.
    let sql: String

    init(_ sql: String) { self.sql = sql }

    static let beginImmediate = StatementKey("BEGIN IMMEDIATE")
    static let beginDeferred = StatementKey("BEGIN DEFERRED")
    static let commit = StatementKey("COMMIT")
    static let dataVersion = StatementKey("PRAGMA data_version")
}
