/// A collection of documents in a scope.
///
/// A `Collection` object stays bound to the collection it was obtained for: once that
/// collection is deleted (even if one of the same name is created again), or its database
/// object is closed, every operation throws notOpen.
public final class Collection: Sendable, CustomStringConvertible, Hashable {
    /// The collection's name.
    public let name: String
    /// The scope the collection belongs to.
    public let scope: Scope
    /// The catalog id; the table is `docs_<id>`.
    let id: Int64
    let table: String
    /// The SQL of the hot paths (read, save), made once: statements are cached by their text,
    /// and building the text anew for every call cost an allocation and an interpolation.
    let sql: DocumentSQL

    init(id: Int64, name: String, scope: Scope) {
        self.id = id
        self.name = name
        self.scope = scope
        self.table = StoreSchema.tableName(id)
        self.sql = DocumentSQL(table: table)
    }

    /// The database the collection belongs to.
    public var database: Database { scope.database }

    /// `scope.collection`, for example `_default._default` or `scopeA.colA`.
    public var fullName: String { "\(scope.name).\(name)" }

    /// The collection's full name, `scope.collection`.
    public var description: String { fullName }

    /// The number of live (not deleted) documents; 0 for a deleted collection or a closed
    /// database, as in Couchbase Lite. Counted on the key index and the index of deleted
    /// documents, never by reading the documents themselves.
    public var count: UInt64 {
        (try? reading { connection in try connection.scalarInt(StoreSchema.liveCountSQL(table)) })
            .flatMap { $0 }.map { UInt64(clamping: $0) } ?? 0
    }

    /// Two collection objects are equal when they name the same collection of the same file.
    public static func == (lhs: Collection, rhs: Collection) -> Bool {
        lhs.id == rhs.id && lhs.database.core === rhs.database.core
    }

    /// Hashes the catalog id and the file.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(ObjectIdentifier(database.core))
    }

    // MARK: Access with validity checks

    /// Runs `body` on a reader; a SQLite failure on a collection that no longer exists
    /// becomes notOpen.
    func reading<T>(singleStatement: Bool = false, _ body: (Connection) throws -> T) throws -> T {
        // `read` checks that the database is open (a notOpen error is not remapped below).
        do {
            return singleStatement ? try database.readSingleStatement(body) : try database.read(body)
        } catch let error as QuireError where error.domain == .sqlite {
            try checkExists()
            throw error
        }
    }

    /// Runs `body` in a write transaction, with the same mapping as ``reading(_:)``.
    /// `singleStatement`: the body changes the database with at most one SQL statement (see
    /// ``Database/writeSingleStatement(_:)``).
    func writing<T>(singleStatement: Bool = false, _ body: (Connection) throws -> T) throws -> T {
        do {
            return singleStatement ? try database.writeSingleStatement(body) : try database.write(body)
        } catch let error as QuireError where error.domain == .sqlite {
            try checkExists()
            throw error
        }
    }

    /// Throws notOpen when the collection was deleted.
    func checkExists() throws {
        try database.read { connection in try checkExists(connection) }
    }

    /// ``checkExists()`` on a connection already held, so the check and the work that
    /// follows see the same state.
    func checkExists(_ connection: Connection) throws {
        let present = try connection.scalarInt("SELECT 1 FROM quire_collections WHERE id = ?", [.integer(id)])
        if present == nil {
            throw QuireError(.notOpen, "collection \(fullName) has been deleted")
        }
    }
}

/// The statements of one collection's table that every read and save runs.
struct DocumentSQL: Sendable {
    /// The live document: sequence, flags, revision ID, stored body (``StoredBody``).
    let selectDocument: StatementKey
    /// What a save needs of the stored row: sequence, flags, revision ID, history.
    let selectStoredRow: StatementKey
    /// Inserts a document's first revision; fails on an existing key.
    let insertNew: StatementKey
    /// Inserts or replaces the current revision.
    let upsert: StatementKey

    init(table: String) {
        selectDocument = StatementKey("SELECT sequence, flags, revid, body FROM \(table) WHERE key = ?")
        selectStoredRow = StatementKey("SELECT sequence, flags, revid, history FROM \(table) WHERE key = ?")
        insertNew = StatementKey(
            "INSERT INTO \(table) (key, sequence, flags, revid, body, history) VALUES (?, ?, 0, ?, ?, '')")
        upsert = StatementKey(
            """
            INSERT INTO \(table) (key, sequence, flags, revid, body, history) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (key) DO UPDATE SET sequence = excluded.sequence, flags = excluded.flags,
                revid = excluded.revid, body = excluded.body, history = excluded.history
            """)
    }
}
