import Foundation

/// The document store's tables and their migrations.
///
/// - `quire_info`: key/value facts about the file (private and public UUIDs, previous UUIDs).
/// - `quire_collections`: the catalog; `live_count` and `deleted_count` are the numbers of
///   live and deleted rows of the collection's table, kept by triggers on it; `last_sequence` is a floor under the collection's last
///   sequence, which is the larger of it and the table's highest `sequence` (saves leave the
///   catalog alone; deleting rows raises the floor first, and rows are numbered only through
///   `Connection.nextSequence`, whose counters a connection keeps between transactions; see
///   `Connection+Sequences.swift`);
///   `id` names the collection's table `docs_<id>`, because
///   SQLite table names are not case-sensitive while collection names are. AUTOINCREMENT
///   keeps ids of deleted collections from being reused, so a stale `Collection` object can
///   never reach a newer collection's table.
/// - `docs_<id>`: one row per document with its current (winning) revision: key, sequence,
///   flags (bit 0 deleted, bit 1 conflicted), revision ID, canonical JSON body, expiration
///   (ms since the epoch), and ancestor revision IDs, newest first.
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
        SchemaMigrator.Migration(version: 3, name: "document counts in the catalog") { connection in
            // Counts kept by triggers, so a collection's document count is one catalog read
            // instead of a scan of its table.
            try connection.execute(
                """
                ALTER TABLE quire_collections ADD COLUMN live_count INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE quire_collections ADD COLUMN deleted_count INTEGER NOT NULL DEFAULT 0;
                """)
            let ids = try connection.query("SELECT id FROM quire_collections") { $0.int64(at: 0) }
            for id in ids {
                try createCountTriggers(connection, id: id)
                let table = tableName(id)
                try connection.run(
                    """
                    UPDATE quire_collections SET
                        live_count = (SELECT count(*) FROM \(table) WHERE flags & 1 = 0),
                        deleted_count = (SELECT count(*) FROM \(table) WHERE flags & 1 = 1)
                    WHERE id = ?
                    """, [.integer(id)])
            }
        },
    ])

    static func tableName(_ id: Int64) -> String { "docs_\(id)" }

    /// Adds a collection to the catalog and creates its table; returns its id.
    static func createCollectionTable(_ connection: Connection, scope: String, name: String) throws -> Int64 {
        try connection.run("INSERT INTO quire_collections (scope, name) VALUES (?, ?)", [.text(scope), .text(name)])
        let id = connection.lastInsertRowID
        let table = tableName(id)
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
        try createCountTriggers(connection, id: id)
        return id
    }

    /// The triggers that keep `live_count` and `deleted_count` of collection `id` in the
    /// catalog equal to its table's live and deleted rows, through every insert, upsert,
    /// deletion, purge and expiration. (Migration 1 creates the default collection before
    /// the columns exist; SQLite resolves a trigger's statements only when it fires, and
    /// migration 3 finds the triggers already there.)
    static func createCountTriggers(_ connection: Connection, id: Int64) throws {
        let table = tableName(id)
        try connection.execute(
            """
            CREATE TRIGGER IF NOT EXISTS \(table)_count_insert AFTER INSERT ON \(table) BEGIN
                UPDATE quire_collections SET live_count = live_count + (NEW.flags & 1 = 0),
                    deleted_count = deleted_count + (NEW.flags & 1) WHERE id = \(id);
            END;
            CREATE TRIGGER IF NOT EXISTS \(table)_count_delete AFTER DELETE ON \(table) BEGIN
                UPDATE quire_collections SET live_count = live_count - (OLD.flags & 1 = 0),
                    deleted_count = deleted_count - (OLD.flags & 1) WHERE id = \(id);
            END;
            CREATE TRIGGER IF NOT EXISTS \(table)_count_update AFTER UPDATE OF flags ON \(table)
                WHEN (OLD.flags & 1) != (NEW.flags & 1) BEGIN
                UPDATE quire_collections SET live_count = live_count + (NEW.flags & 1 = 0) - (OLD.flags & 1 = 0),
                    deleted_count = deleted_count + (NEW.flags & 1) - (OLD.flags & 1) WHERE id = \(id);
            END;
            """)
    }
}
