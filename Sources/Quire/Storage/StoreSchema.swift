import Foundation

/// The document store's tables and their migrations.
///
/// - `quire_info`: key/value facts about the file (private and public UUIDs, previous UUIDs).
/// - `quire_collections`: the catalog; `last_sequence` is a floor under the collection's last
///   sequence, which is the larger of it and the table's highest `sequence` (saves leave the
///   catalog alone; deleting rows raises the floor first, and rows are numbered only through
///   `Connection.nextSequence`, whose counters a connection keeps between transactions; see
///   `Connection+Sequences.swift`);
///   `id` names the collection's table `docs_<id>`, because
///   SQLite table names are not case-sensitive while collection names are. AUTOINCREMENT
///   keeps ids of deleted collections from being reused, so a stale `Collection` object can
///   never reach a newer collection's table.
/// - `docs_<id>`: one row per document with its current (winning) revision: sequence (the
///   rowid), key (a unique index, `docs_<id>_key`), flags (bit 0 deleted, bit 1 conflicted),
///   revision ID (from schema version 6 Quire's own packed into a blob, others as text:
///   `StoredRevisionID`), expiration (ms since the epoch), ancestor revision IDs (newest first) and,
///   last, the body: canonical JSON, from schema version 7 with its identifier keys written bare
///   (`quire_body.h`; `quire_body(body)` is the JSON, rows written before are JSON as they are). A partial index of the deleted rows (`docs_<id>_deleted`,
///   schema version 4) makes counting documents cheap. Sequence order is the table's own order, the one
///   `_changes` and replication walk, and the full-text tables' rowids are the same numbers.
///   A new revision takes a new sequence, so its row moves to the end of the table. Until
///   schema version 3 the table was `WITHOUT ROWID` with the key as primary key; such rows
///   spill into mostly empty overflow pages from about a twentieth of a page, which at
///   1–6 KB per document cost 1.5–3.4× the space and up to 5× the time of this layout
///   (`Benchmarks/STORAGE_LAYOUT.md`). Migration 3 rewrites the old tables.
/// - `quire_leaves`: the other leaves of revision trees (conflicts, closed branches).
/// - `quire_local_docs`: local documents (CouchDB's `_local/`), never replicated: checkpoints.
enum StoreSchema {
    static let migrator = SchemaMigrator([
        SchemaMigrator.Migration(version: 1, name: "catalog and default collection") { connection in
            try connection.execute(
                """
                CREATE TABLE quire_info (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE quire_collections (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    scope TEXT NOT NULL,
                    name TEXT NOT NULL,
                    last_sequence INTEGER NOT NULL DEFAULT 0,
                    purge_count INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (scope, name)
                );
                CREATE TABLE quire_indexes (
                    collection_id INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    definition TEXT NOT NULL,
                    PRIMARY KEY (collection_id, name)
                ) WITHOUT ROWID;
                """)
            try connection.run(
                "INSERT INTO quire_info (key, value) VALUES ('privateUUID', ?), ('publicUUID', ?)",
                [.text(UUID().uuidString), .text(UUID().uuidString)])
            let id = try createCollectionTable(connection, scope: "_default", name: "_default")
            precondition(id == 1, "the default collection is the first in the catalog")
        },
        SchemaMigrator.Migration(version: 2, name: "revision tree leaves") { connection in
            // Leaves other than the current revision: conflicts and closed branches from
            // replication. Plain saves never touch this table.
            try connection.execute(
                """
                CREATE TABLE quire_leaves (
                    collection_id INTEGER NOT NULL,
                    key TEXT NOT NULL,
                    revid TEXT NOT NULL,
                    deleted INTEGER NOT NULL,
                    body TEXT NOT NULL,
                    history TEXT NOT NULL DEFAULT '',
                    PRIMARY KEY (collection_id, key, revid)
                ) WITHOUT ROWID;
                CREATE TABLE quire_local_docs (
                    collection_id INTEGER NOT NULL,
                    key TEXT NOT NULL,
                    body TEXT NOT NULL,
                    PRIMARY KEY (collection_id, key)
                ) WITHOUT ROWID;
                """)
        },
        SchemaMigrator.Migration(version: sequenceKeyedVersion, name: "document tables keyed by sequence") {
            connection in
            try rekeyDocumentTables(connection)
        },
        SchemaMigrator.Migration(version: 4, name: "an index of deleted documents") { connection in
            let ids = try connection.query("SELECT id FROM quire_collections ORDER BY id") { $0.int64(at: 0) }
            for id in ids { try createDeletedIndex(connection, table: tableName(id)) }
        },
        // Value and array indexes made on `json_extract` are made again on `quire_extract`,
        // which queries read bodies with now, so the planner keeps using them.
        SchemaMigrator.Migration(version: 5, name: "indexes read bodies with quire_extract") { connection in
            try IndexCatalog.recompileBodyReads(connection)
        },
        // Quire's own revision IDs are stored packed, 21 to 25 bytes where their text took 42
        // or more (`StoredRevisionID`); an index on `meta().revisionID` is made again on
        // `quire_revid(revid)`. Updating `revid` alone fires no full-text or array trigger.
        SchemaMigrator.Migration(version: packedRevisionIDVersion, name: "revision IDs stored packed") { connection in
            let ids = try connection.query("SELECT id FROM quire_collections ORDER BY id") { $0.int64(at: 0) }
            for id in ids {
                try connection.execute(
                    "UPDATE \(tableName(id)) SET revid = quire_revid_pack(revid) WHERE typeof(revid) = 'text'")
            }
            try IndexCatalog.recompileRevisionIDReads(connection)
        },
        // Bodies are stored with their identifier keys bare (`quire_body.h`): rows written
        // before keep their JSON, which reads the same; full-text and array indexes are made
        // again so that their triggers read new bodies through `quire_body`.
        SchemaMigrator.Migration(version: bareKeyBodiesVersion, name: "bodies stored with bare keys") { connection in
            try IndexCatalog.rebuildBodyReadingIndexes(connection)
        },
    ])

    static func tableName(_ id: Int64) -> String { "docs_\(id)" }

    /// The first schema version whose document tables are keyed by sequence.
    static let sequenceKeyedVersion: Int64 = 3

    /// The first schema version whose document tables store Quire's own revision IDs packed.
    static let packedRevisionIDVersion: Int64 = 6

    /// The first schema version that stores bodies with bare keys (older Quires cannot read them).
    static let bareKeyBodiesVersion: Int64 = 7

    /// Adds a collection to the catalog and creates its table, in the layout of the file's
    /// schema version (a file not yet migrated keeps one layout for all its tables); returns
    /// the collection's id.
    static func createCollectionTable(_ connection: Connection, scope: String, name: String) throws -> Int64 {
        try connection.run("INSERT INTO quire_collections (scope, name) VALUES (?, ?)", [.text(scope), .text(name)])
        let id = connection.lastInsertRowID
        if try connection.scalarInt("PRAGMA user_version") ?? 0 >= sequenceKeyedVersion {
            try createDocumentTable(connection, table: tableName(id))
        } else {
            try createLegacyDocumentTable(connection, table: tableName(id))
        }
        return id
    }

    /// Creates a document table and its indexes in the current layout.
    static func createDocumentTable(_ connection: Connection, table: String, as name: String? = nil) throws {
        try connection.execute(
            """
            CREATE TABLE \(name ?? table) (
                sequence INTEGER PRIMARY KEY,
                key TEXT NOT NULL,
                flags INTEGER NOT NULL DEFAULT 0,
                revid TEXT NOT NULL,
                expiration INTEGER,
                history TEXT NOT NULL DEFAULT '',
                body TEXT NOT NULL
            );
            """)
        if name == nil { try createDocumentIndexes(connection, table: table) }
    }

    /// The key and expiration indexes of a document table in the current layout.
    static func createDocumentIndexes(_ connection: Connection, table: String) throws {
        try connection.execute(
            """
            CREATE UNIQUE INDEX \(table)_key ON \(table) (key);
            CREATE INDEX \(table)_expiration ON \(table) (expiration) WHERE expiration IS NOT NULL;
            """)
        try createDeletedIndex(connection, table: table)
    }

    /// A partial index of the deleted rows (tombstones), so that counting them reads only
    /// them; with the narrow key index for the total, a collection's live count costs two
    /// index reads instead of a scan of every body. It costs a write only when a tombstone is
    /// written or removed, where counters kept by triggers would cost one on every save.
    static func createDeletedIndex(_ connection: Connection, table: String) throws {
        try connection.execute("CREATE INDEX IF NOT EXISTS \(table)_deleted ON \(table) (flags) WHERE flags & 1 = 1")
    }

    /// The number of live documents of `table`: every row (counted on the key index) less the
    /// deleted ones (counted on the partial index). The planner takes both indexes because the
    /// conditions match theirs word for word.
    static func liveCountSQL(_ table: String) -> String {
        "SELECT (SELECT count(*) FROM \(table)) - (SELECT count(*) FROM \(table) WHERE flags & 1 = 1)"
    }

    /// The number of deleted documents (tombstones) of `table`, from the partial index.
    static func deletedCountSQL(_ table: String) -> String {
        "SELECT count(*) FROM \(table) WHERE flags & 1 = 1"
    }

    /// The document table of schema versions 1 and 2, kept as it was: migration 1 creates the
    /// default collection's table in it (migration 3 then rewrites it), and tests make files
    /// of that format with it.
    static func createLegacyDocumentTable(_ connection: Connection, table: String) throws {
        try connection.execute(
            """
            CREATE TABLE \(table) (
                key TEXT PRIMARY KEY NOT NULL,
                sequence INTEGER NOT NULL,
                flags INTEGER NOT NULL DEFAULT 0,
                revid TEXT NOT NULL,
                body TEXT NOT NULL,
                expiration INTEGER,
                history TEXT NOT NULL DEFAULT ''
            ) WITHOUT ROWID;
            CREATE UNIQUE INDEX \(table)_sequence ON \(table) (sequence);
            CREATE INDEX \(table)_expiration ON \(table) (expiration) WHERE expiration IS NOT NULL;
            """)
    }

    /// Migration 3: rewrites every `WITHOUT ROWID` document table as a table keyed by
    /// sequence, in sequence order, with every column as it was; then rebuilds each value and
    /// full-text index from its definition in `quire_indexes` (dropping the old table took its
    /// value indexes and full-text triggers with it). Revision trees (`quire_leaves`), local
    /// documents, the catalog and blobs are untouched. It runs inside the migrator's single
    /// transaction: a crash at any point leaves the file as it was.
    static func rekeyDocumentTables(_ connection: Connection) throws {
        let ids = try connection.query("SELECT id FROM quire_collections ORDER BY id") { $0.int64(at: 0) }
        for id in ids {
            let table = tableName(id)
            guard try isLegacyDocumentTable(connection, table: table) else { continue }
            let staging = "quire_rekey_\(id)"
            try createDocumentTable(connection, table: table, as: staging)
            try connection.execute(
                """
                INSERT INTO \(staging) (sequence, key, flags, revid, expiration, history, body)
                    SELECT sequence, key, flags, revid, expiration, history, body FROM \(table) ORDER BY sequence;
                DROP TABLE \(table);
                ALTER TABLE \(staging) RENAME TO \(table);
                """)
            try IndexCatalog.dropIndexTables(connection, collectionID: id)
            try createDocumentIndexes(connection, table: table)
        }
        try IndexCatalog.rebuildAll(connection)
    }

    /// Whether `table` exists in the layout of schema versions 1 and 2.
    static func isLegacyDocumentTable(_ connection: Connection, table: String) throws -> Bool {
        let sql = try connection.scalarText(
            "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(table)])
        return sql?.uppercased().hasSuffix("WITHOUT ROWID") ?? false
    }
}
