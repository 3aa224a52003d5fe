/// Array indexes: the elements of an array of each document in a table of their own, indexed.
///
/// Each level of an index's path has an element table `<table>_ua_<path>_<hash>`:
/// `(docid, i, body)`, one row per element, `docid` the document's sequence (the first level)
/// or the parent element's rowid (deeper levels), `i` the element's place in the document
/// (json_each's `id`, increasing in document order) and `body` the element as JSON text.
/// Triggers keep the first level current with the live documents (insert, update, delete) and
/// each deeper level with the level above it (insert, delete), so every write updates them in
/// the same transaction. Indexes with the same path, or a common first part of it, share the
/// tables; a table goes when no index needs it any more. The index itself is a SQLite index
/// `<table>_ai_<name>_<hash>` over the last level's table, on its expressions compiled over
/// `body` exactly as the query compiler compiles an UNNEST alias's properties there.
extension IndexCatalog {
    /// The expressions of an array index, `[]` for the elements themselves; an empty list, or
    /// one empty expression, is refused (as Couchbase Lite's `ArrayIndexConfiguration`).
    static func elementExpressions(_ configuration: ArrayIndexConfiguration) throws -> [String] {
        guard let expressions = configuration.expressions else { return [] }
        if expressions.isEmpty || (expressions.count == 1 && expressions[0].isEmpty) {
            throw QuireError(
                .invalidParameter,
                "an array index's expressions must not be empty; pass nil to index the elements themselves")
        }
        return expressions
    }

    /// The levels of an array index's path: `contacts[].phones` is `contacts` of the document,
    /// then `phones` of each contact. Each level is a path of keys.
    static func unnestLevels(_ path: String) throws -> [PropertyPath] {
        var text = path.trimmingSpaces
        if text.hasSuffix("[]") { text.removeLast(2) }
        guard !text.isEmpty else {
            throw QuireError(.invalidQuery, "an array index needs the path of the array (given '\(path)')")
        }
        return try text.components(separatedBy: "[].").map { part in
            let level = try PropertyPath.parse(part)
            guard !level.isEmpty, level.components.allSatisfy({ if case .key = $0 { true } else { false } }) else {
                throw QuireError(
                    .invalidQuery,
                    "invalid array index path '\(path)': each level is a property path of keys, levels joined by '[].'")
            }
            try level.validate()
            return level
        }
    }

    /// The element table of `levels` (the first `levels.count` levels of a path) on `table`.
    static func elementTableName(table: String, levels: [PropertyPath]) -> String {
        objectName(table, "ua", levels.map(\.jsonPath).joined(separator: "[]"))
    }

    static func arrayIndexName(table: String, name: String) -> String { objectName(table, "ai", name) }

    /// The element table a query's UNNEST of `levels` can read, when an array index made it.
    static func elementTable(_ connection: Connection, collection: Collection, levels: [PropertyPath]) throws
        -> String?
    {
        let name = elementTableName(table: collection.table, levels: levels)
        let found = try connection.scalarInt(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(name)])
        return found == nil ? nil : name
    }

    /// Creates the element tables of the index's path that do not exist yet, then the index.
    static func createArrayIndex(_ connection: Connection, table: String, name: String, definition: Definition)
        throws
    {
        let levels = try unnestLevels(definition.path ?? "")
        let expressions = try definition.expressions.map { try SQLPPParser.parseExpression($0) }
        let columns =
            try expressions.isEmpty
            ? [QueryCompiler.indexExpression(.property(PropertyPath(), source: nil))]
            : expressions.map { try QueryCompiler.indexExpression($0) }
        var parent: String?
        for depth in 1...levels.count {
            let levelTable = elementTableName(table: table, levels: Array(levels.prefix(depth)))
            try createElementTable(
                connection, documents: table, parent: parent, name: levelTable, path: levels[depth - 1])
            parent = levelTable
        }
        guard let leaf = parent else { return }
        try connection.execute(
            "CREATE INDEX \(arrayIndexName(table: table, name: name)) ON \(leaf) (\(columns.joined(separator: ", ")))")
    }

    /// One element table, its triggers, and its rows from the documents (or parent elements)
    /// already there; nothing when it exists.
    private static func createElementTable(
        _ connection: Connection, documents: String, parent: String?, name: String, path: PropertyPath
    ) throws {
        let exists = try connection.scalarInt(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(name)])
        guard exists == nil else { return }
        let jsonPath = QueryCompiler.quoted(path.jsonPath)
        // A document's stored body is read as JSON through `quire_body` (its keys may be bare,
        // `quire_body.h`); an element is JSON already, as `->` wrote it.
        func elements(_ row: String) -> String {
            let json = parent == nil ? "quire_body(\(row).body)" : "\(row).body"
            return
                "SELECT \(row).\(parent == nil ? "sequence" : "rowid"), e.id, \(json) -> e.fullkey FROM json_each(\(json), \(jsonPath)) AS e"
        }
        try connection.execute(
            "CREATE TABLE \(name) (docid INTEGER NOT NULL, i INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (docid, i))"
        )
        if let parent {
            try connection.execute(
                """
                CREATE TRIGGER \(name)_insert AFTER INSERT ON \(parent) BEGIN
                    INSERT INTO \(name) (docid, i, body) \(elements("new"));
                END;
                CREATE TRIGGER \(name)_delete AFTER DELETE ON \(parent) BEGIN
                    DELETE FROM \(name) WHERE docid = old.rowid;
                END;
                INSERT INTO \(name) (docid, i, body) SELECT d.rowid, e.id, d.body -> e.fullkey FROM \(parent) AS d, json_each(d.body, \(jsonPath)) AS e;
                """)
        } else {
            try connection.execute(
                """
                CREATE TRIGGER \(name)_insert AFTER INSERT ON \(documents) WHEN new.flags & 1 = 0 BEGIN
                    INSERT INTO \(name) (docid, i, body) \(elements("new"));
                END;
                CREATE TRIGGER \(name)_delete AFTER DELETE ON \(documents) BEGIN
                    DELETE FROM \(name) WHERE docid = old.sequence;
                END;
                CREATE TRIGGER \(name)_update AFTER UPDATE OF sequence, flags, body ON \(documents) BEGIN
                    DELETE FROM \(name) WHERE docid = old.sequence;
                    INSERT INTO \(name) (docid, i, body) \(elements("new")) WHERE new.flags & 1 = 0;
                END;
                INSERT INTO \(name) (docid, i, body) SELECT d.sequence, e.id, quire_body(d.body) -> e.fullkey FROM \(documents) AS d, json_each(quire_body(d.body), \(jsonPath)) AS e WHERE d.flags & 1 = 0;
                """)
        }
    }

    /// The element tables of collection `id` on the file, deepest first.
    private static func elementTables(_ connection: Connection, collectionID id: Int64) throws -> [String] {
        let prefix = StoreSchema.tableName(id) + "_ua_"
        return try connection.query(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND substr(name, 1, ?) = ? ORDER BY rowid DESC",
            [.integer(Int64(prefix.count)), .text(prefix)]
        ) { $0.text(at: 0) ?? "" }
    }

    /// Drops the element tables of collection `id` that no array index of it needs.
    static func dropUnusedElementTables(_ connection: Connection, collectionID id: Int64) throws {
        let table = StoreSchema.tableName(id)
        let definitions = try connection.query(
            "SELECT definition FROM quire_indexes WHERE collection_id = ? AND kind = ?",
            [.integer(id), .text(Kind.array.rawValue)]
        ) { Definition(kind: .array, json: (try? JSONReader.parse($0.text(at: 0) ?? "{}")) ?? .object([:])) }
        var needed = Set<String>()
        for definition in definitions {
            guard let levels = try? unnestLevels(definition.path ?? "") else { continue }
            for depth in 1...levels.count {
                needed.insert(elementTableName(table: table, levels: Array(levels.prefix(depth))))
            }
        }
        for name in try elementTables(connection, collectionID: id) where !needed.contains(name) {
            try dropTableAndTriggers(connection, name)
        }
    }

    /// Drops every element table of collection `id` (the collection's own table is dropped
    /// separately).
    static func dropElementTables(_ connection: Connection, collectionID id: Int64) throws {
        for name in try elementTables(connection, collectionID: id) {
            try dropTableAndTriggers(connection, name)
        }
    }

    /// Empties and refills every element table from the documents: emptying a first level
    /// empties the levels under it through their triggers, and refilling it refills them.
    static func refillElementTables(_ connection: Connection) throws {
        let definitions = try connection.query(
            "SELECT collection_id, definition FROM quire_indexes WHERE kind = ? ORDER BY collection_id, name",
            [.text(Kind.array.rawValue)]
        ) { row in
            (
                row.int64(at: 0),
                Definition(kind: .array, json: (try? JSONReader.parse(row.text(at: 1) ?? "{}")) ?? .object([:]))
            )
        }
        var refilled = Set<String>()
        for (collectionID, definition) in definitions {
            guard let first = try? unnestLevels(definition.path ?? "").first else { continue }
            let documents = StoreSchema.tableName(collectionID)
            let name = elementTableName(table: documents, levels: [first])
            guard refilled.insert(name).inserted else { continue }
            try connection.execute(
                """
                DELETE FROM \(name);
                INSERT INTO \(name) (docid, i, body) SELECT d.sequence, e.id, quire_body(d.body) -> e.fullkey FROM \(documents) AS d, json_each(quire_body(d.body), \(QueryCompiler.quoted(first.jsonPath))) AS e WHERE d.flags & 1 = 0;
                """)
        }
    }
}
