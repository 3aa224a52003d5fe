/// Index definitions in `quire_indexes` and the SQLite objects that realise them.
///
/// A value index is `CREATE INDEX <table>_vi_<name>_<hash> ON <table> (<expressions>)
/// WHERE flags & 1 = 0 [AND <condition>]`, the expressions compiled exactly as the query
/// compiler compiles them, so SQLite's planner matches them. A full-text index is an FTS5
/// table `<table>_fts_<name>_<hash>` whose rowid is the document's sequence, filled from the
/// existing documents and kept current by three triggers on the documents table (insert,
/// update, delete), so every write — saves, deletes, purges, expirations, other processes —
/// updates it in the same transaction. Its rank column is `quire_rank()`, LiteCore's relevance;
/// tables made before it keep FTS5's bm25 (and, in English, the porter tokenizer) until the
/// index is created again.
enum IndexCatalog {
    /// The kinds of index stored in `quire_indexes.kind`.
    enum Kind: String {
        case value
        case fullText = "fulltext"
        case array
    }

    /// What `quire_indexes.definition` holds, canonical JSON so equal configurations compare equal.
    struct Definition: Equatable {
        let kind: Kind
        let expressions: [String]
        let whereClause: String?
        let ignoreAccents: Bool
        let language: String?
        /// An array index's path to the array.
        let path: String?

        init(_ configuration: any IndexConfiguration) throws {
            path = (configuration as? ArrayIndexConfiguration)?.path
            switch configuration {
            case let value as ValueIndexConfiguration:
                kind = .value
                expressions = value.expressions
                whereClause = value.whereClause
                ignoreAccents = false
                language = nil
            case let fullText as FullTextIndexConfiguration:
                kind = .fullText
                expressions = fullText.expressions
                whereClause = fullText.whereClause
                ignoreAccents = fullText.ignoreAccents
                language = fullText.language
            case let array as ArrayIndexConfiguration:
                kind = .array
                expressions = try IndexCatalog.elementExpressions(array)
                whereClause = nil
                ignoreAccents = false
                language = nil
            default:
                throw QuireError(.invalidParameter, "unsupported index configuration \(type(of: configuration))")
            }
        }

        init(kind: Kind, json: JSONValue) {
            self.kind = kind
            expressions = json["expressions"]?.arrayValue?.compactMap(\.stringValue) ?? []
            whereClause = json["where"]?.stringValue
            ignoreAccents = json["ignoreAccents"]?.boolValue ?? false
            language = json["language"]?.stringValue
            path = json["path"]?.stringValue
        }

        var json: String {
            var members: [String: JSONValue] = ["expressions": .array(expressions.map { .string($0) })]
            if let whereClause { members["where"] = .string(whereClause) }
            if let path { members["path"] = .string(path) }
            if kind == .fullText {
                members["ignoreAccents"] = .bool(ignoreAccents)
                members["language"] = language.map { .string($0) } ?? .null
            }
            return (try? JSONValue.object(members).jsonString()) ?? "{}"
        }
    }

    // MARK: Names

    /// A SQL identifier for an index object: readable, and unique by the name's digest.
    static func objectName(_ table: String, _ infix: String, _ name: String) -> String {
        let readable = String(
            name.unicodeScalars.prefix(32).map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
                    ? Character(scalar) : "_"
            })
        let digest = DigestText.hex(SHA1.hash(data: Array(name.utf8))).prefix(8)
        return "\(table)_\(infix)_\(readable)_\(digest)"
    }

    static func valueIndexName(table: String, name: String) -> String { objectName(table, "vi", name) }

    static func fullTextTableName(table: String, name: String) -> String { objectName(table, "fts", name) }

    // MARK: Catalog

    static func definition(_ connection: Connection, collectionID: Int64, name: String) throws -> Definition? {
        try connection.query(
            "SELECT kind, definition FROM quire_indexes WHERE collection_id = ? AND name = ?",
            [.integer(collectionID), .text(name)]
        ) { row -> Definition? in
            guard let kind = row.text(at: 0).flatMap(Kind.init(rawValue:)) else { return nil }
            let json = (try? JSONReader.parse(row.text(at: 1) ?? "{}")) ?? .object([:])
            return Definition(kind: kind, json: json)
        }.first ?? nil
    }

    static func names(_ connection: Connection, collectionID: Int64) throws -> [String] {
        try connection.query(
            "SELECT name FROM quire_indexes WHERE collection_id = ? ORDER BY name", [.integer(collectionID)]
        ) { $0.text(at: 0) ?? "" }
    }

    /// The FTS table of the full-text index `name` of `collection`, or nil.
    static func fullTextTable(_ connection: Connection, collection: Collection, name: String) throws -> String? {
        guard let definition = try definition(connection, collectionID: collection.id, name: name),
            definition.kind == .fullText
        else { return nil }
        return fullTextTableName(table: collection.table, name: name)
    }

    /// The WHERE clauses (SQL text) of the value indexes on `table` that have a condition
    /// beyond the live-documents filter every index has.
    static func partialIndexConditions(_ connection: Connection, table: String) throws -> [String] {
        try connection.query(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql LIKE ?",
            [.text(table), .text("% WHERE \(liveDocuments) AND %")]
        ) { $0.text(at: 0) ?? "" }
    }

    /// The condition every value index starts its WHERE clause with: live documents only.
    private static let liveDocuments = "flags & 1 = 0"

    // MARK: Creating and dropping

    static func create(_ connection: Connection, collection: Collection, name: String, definition: Definition) throws {
        try createObjects(connection, table: collection.table, name: name, definition: definition)
        try connection.run(
            "INSERT OR REPLACE INTO quire_indexes (collection_id, name, kind, definition) VALUES (?, ?, ?, ?)",
            [.integer(collection.id), .text(name), .text(definition.kind.rawValue), .text(definition.json)])
    }

    /// Creates every index of the catalog again from its definition, after the document
    /// tables were rewritten (their value indexes and full-text triggers went with the old
    /// tables; the full-text tables must have been dropped).
    static func rebuildAll(_ connection: Connection) throws {
        let indexes = try connection.query(
            "SELECT collection_id, name, kind, definition FROM quire_indexes ORDER BY collection_id, name"
        ) { row in (row.int64(at: 0), row.text(at: 1) ?? "", row.text(at: 2) ?? "", row.text(at: 3) ?? "{}") }
        for (collectionID, name, kindText, json) in indexes {
            guard let kind = Kind(rawValue: kindText) else {
                throw QuireError(
                    .corruptData, "index '\(name)' of collection \(collectionID) has an unknown kind '\(kindText)'")
            }
            let definition = Definition(kind: kind, json: (try? JSONReader.parse(json)) ?? .object([:]))
            try createObjects(
                connection, table: StoreSchema.tableName(collectionID), name: name, definition: definition)
        }
    }

    /// Creates again the value and array indexes whose expressions read bodies with SQLite's
    /// `json_extract` or `json_type`, as files before schema version 5 have them: queries now
    /// read bodies with `quire_extract` and `quire_type`, and SQLite's planner uses an index
    /// only for the very expression it was made on. Full-text tables need nothing (their
    /// triggers give the same values either way).
    static func recompileBodyReads(_ connection: Connection) throws {
        try recompile(connection) { $0.contains("json_extract(") || $0.contains("json_type(") }
    }

    /// Creates again the value and array indexes that read the `revid` column itself, as files
    /// before schema version 6 have them: `meta().revisionID` is now `quire_revid(revid)`
    /// (the column holds Quire's own IDs packed, ``StoredRevisionID``). The test is on the
    /// index's SQL text, so an index whose name or path merely contains `revid` is made again
    /// too, the same as it was.
    static func recompileRevisionIDReads(_ connection: Connection) throws {
        try recompile(connection) { sql in
            sql.replacingOccurrences(of: "quire_revid(", with: "").contains("revid")
        }
    }

    /// Drops and creates again, from their definitions, the value and array indexes whose
    /// SQL (`sqlite_schema.sql` of the SQLite index) `needsIt` picks.
    private static func recompile(_ connection: Connection, where needsIt: (String) -> Bool) throws {
        let indexes = try connection.query(
            "SELECT collection_id, name, kind, definition FROM quire_indexes WHERE kind IN (?, ?) ORDER BY collection_id, name",
            [.text(Kind.value.rawValue), .text(Kind.array.rawValue)]
        ) { row in (row.int64(at: 0), row.text(at: 1) ?? "", row.text(at: 2) ?? "", row.text(at: 3) ?? "{}") }
        for (collectionID, name, kindText, json) in indexes {
            guard let kind = Kind(rawValue: kindText) else { continue }
            let table = StoreSchema.tableName(collectionID)
            let object =
                kind == .value ? valueIndexName(table: table, name: name) : arrayIndexName(table: table, name: name)
            let sql = try connection.scalarText(
                "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?", [.text(object)])
            guard let sql, needsIt(sql) else { continue }
            try connection.execute("DROP INDEX \(object)")
            let definition = Definition(kind: kind, json: (try? JSONReader.parse(json)) ?? .object([:]))
            try createObjects(connection, table: table, name: name, definition: definition)
        }
    }

    /// Bytes of the file the writer maps into memory while an index is filled from documents
    /// of ``mappedFillBodyBytes`` or more (`PRAGMA mmap_size`, set back to 0 afterwards): the
    /// fill reads every page of the table once, and a page read from the map needs no `pread`
    /// call and no copy into the writer's page cache. Measured in `Benchmarks/profile-notes.md`:
    /// 10,000 hotels of a few KB index in 10 ms against 17 ms unmapped, but 100,000 people of
    /// 300 bytes take 58-62 ms against 54 ms (a page holds ten of them, and mapping the file
    /// costs more than it saves). Off on macOS, as for readers.
    #if os(macOS)
        static let fillMapSize = 0
    #else
        static let fillMapSize = 256 * 1024 * 1024
    #endif

    /// The mean body size, over the first documents of the table, from which an index fill
    /// maps the file.
    static let mappedFillBodyBytes = 1024

    /// The SQLite objects of one index on `table`, filled from its documents.
    private static func createObjects(_ connection: Connection, table: String, name: String, definition: Definition)
        throws
    {
        guard fillMapSize > 0, try meanBodyBytes(connection, table: table) >= Double(mappedFillBodyBytes) else {
            return try fillObjects(connection, table: table, name: name, definition: definition)
        }
        try connection.execute("PRAGMA mmap_size=\(fillMapSize)")
        defer { try? connection.execute("PRAGMA mmap_size=0") }
        try fillObjects(connection, table: table, name: name, definition: definition)
    }

    /// The mean size in bytes of the first 64 bodies of `table` (0 when it has none).
    private static func meanBodyBytes(_ connection: Connection, table: String) throws -> Double {
        try connection.query("SELECT avg(length(CAST(body AS BLOB))) FROM (SELECT body FROM \(table) LIMIT 64)") {
            $0.isNull(at: 0) ? 0 : $0.double(at: 0)
        }.first ?? 0
    }

    private static func fillObjects(_ connection: Connection, table: String, name: String, definition: Definition)
        throws
    {
        if definition.kind == .array {
            return try createArrayIndex(connection, table: table, name: name, definition: definition)
        }
        guard !definition.expressions.isEmpty else {
            throw QuireError(.invalidParameter, "index '\(name)' needs at least one expression")
        }
        let parsed = try definition.expressions.map { try SQLPPParser.parseExpression($0) }
        let condition = try definition.whereClause.map { try SQLPPParser.parseExpression($0) }
        switch definition.kind {
        case .value:
            let columns = try parsed.map { try QueryCompiler.indexExpression($0) }
            let terms =
                try [liveDocuments] + (condition?.conjuncts.map { try QueryCompiler.indexExpression($0) } ?? [])
            try connection.execute(
                "CREATE INDEX \(valueIndexName(table: table, name: name)) ON \(table) (\(columns.joined(separator: ", "))) WHERE \(terms.joined(separator: " AND "))"
            )
        case .array:
            break
        case .fullText:
            let tokenizer = try FullTextIndexConfiguration(
                definition.expressions, ignoreAccents: definition.ignoreAccents, language: definition.language
            ).tokenizer()
            try createFullText(
                connection, table: table, fts: fullTextTableName(table: table, name: name), expressions: parsed,
                condition: condition, tokenizer: tokenizer)
        }
    }

    private static func createFullText(
        _ connection: Connection, table: String, fts: String, expressions: [PlanExpression], condition: PlanExpression?,
        tokenizer: String
    ) throws {
        let columnNames = fullTextColumns(expressions)
        func values(_ prefix: String) throws -> String { try fullTextValues(expressions, prefix: prefix) }
        func filter(_ prefix: String) throws -> String { try fullTextFilter(condition, prefix: prefix) }
        try connection.execute(
            """
            CREATE VIRTUAL TABLE \(fts) USING fts5(\(columnNames), tokenize = '\(tokenizer)');
            INSERT INTO \(fts) (\(fts), rank) VALUES ('rank', 'quire_rank()');
            CREATE TRIGGER \(fts)_insert AFTER INSERT ON \(table) WHEN \(try filter("new.")) BEGIN
                INSERT INTO \(fts) (rowid, \(columnNames)) VALUES (new.sequence, \(try values("new.")));
            END;
            CREATE TRIGGER \(fts)_delete AFTER DELETE ON \(table) BEGIN
                DELETE FROM \(fts) WHERE rowid = old.sequence;
            END;
            CREATE TRIGGER \(fts)_update AFTER UPDATE OF sequence, flags, body ON \(table) BEGIN
                DELETE FROM \(fts) WHERE rowid = old.sequence;
                INSERT INTO \(fts) (rowid, \(columnNames)) SELECT new.sequence, \(try values("new.")) WHERE \(try filter("new."));
            END;
            """)
        try fillFullText(connection, table: table, fts: fts, expressions: expressions, condition: condition)
    }

    /// The FTS table's columns, one per indexed expression: a property is named by its path
    /// as written, so a query can search that column alone, as LiteCore's FTS columns are named
    /// (c4QueryTest "C4Query FTS multiple properties": `contact.address.street:Santa`); any
    /// other expression, and a name FTS5 reserves, the documents table has or the index already
    /// has (case-insensitively), is `c<n>`. Tables made before properties were named keep `c0`, `c1`, ... (see
    /// ``fillFullText(_:table:fts:expressions:condition:)``).
    private static func fullTextColumns(_ expressions: [PlanExpression]) -> String {
        // FTS5's own names, and the document table's columns, which a query joined with the
        // FTS table names unqualified.
        var used: Set<String> = ["rank", "rowid", "sequence", "key", "flags", "revid", "expiration", "history", "body"]
        var names: [String] = []
        for (offset, expression) in expressions.enumerated() {
            var name = ""
            if case .property(let path, nil) = expression, !path.isEmpty, !used.contains(path.description.lowercased())
            {
                name = path.description
            } else {
                var number = offset
                while used.contains("c\(number)") { number += expressions.count }
                name = "c\(number)"
            }
            used.insert(name.lowercased())
            names.append(name)
        }
        return names.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// The indexed expressions over a row (`new.` in triggers, nothing in a scan).
    private static func fullTextValues(_ expressions: [PlanExpression], prefix: String) throws -> String {
        try expressions.map { try QueryCompiler.fullTextValue($0, prefix: prefix) }.joined(separator: ", ")
    }

    /// Which rows are indexed: live documents matching the index's condition.
    private static func fullTextFilter(_ condition: PlanExpression?, prefix: String) throws -> String {
        let terms =
            try ["\(prefix)flags & 1 = 0"]
            + (condition?.conjuncts.map {
                try QueryCompiler.indexExpression($0, prefix: prefix)
            } ?? [])
        return terms.joined(separator: " AND ")
    }

    /// Indexes every current document of `table` into `fts`.
    private static func fillFullText(
        _ connection: Connection, table: String, fts: String, expressions: [PlanExpression], condition: PlanExpression?
    ) throws {
        // The table's own column names: it may have been made when columns had other names.
        let columns = try connection.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(fts)]) {
            "\"\($0.text(at: 0) ?? "")\""
        }
        try connection.execute(
            "INSERT INTO \(fts) (rowid, \(columns.joined(separator: ", "))) SELECT sequence, \(try fullTextValues(expressions, prefix: "")) FROM \(table) WHERE \(try fullTextFilter(condition, prefix: ""))"
        )
    }

    /// Empties and refills every full-text index and array index element table of the
    /// database from its documents (`REINDEX` rebuilds SQLite's own indexes, not these tables).
    static func rebuildIndexTables(_ connection: Connection) throws {
        try refillElementTables(connection)
        let indexes = try connection.query(
            "SELECT collection_id, name, definition FROM quire_indexes WHERE kind = ? ORDER BY collection_id, name",
            [.text(Kind.fullText.rawValue)]
        ) { row in (row.int64(at: 0), row.text(at: 1) ?? "", row.text(at: 2) ?? "{}") }
        for (collectionID, name, json) in indexes {
            let definition = Definition(kind: .fullText, json: (try? JSONReader.parse(json)) ?? .object([:]))
            let expressions = try definition.expressions.map { try SQLPPParser.parseExpression($0) }
            let condition = try definition.whereClause.map { try SQLPPParser.parseExpression($0) }
            let table = StoreSchema.tableName(collectionID)
            let fts = fullTextTableName(table: table, name: name)
            try connection.execute("DELETE FROM \(fts)")
            try fillFullText(connection, table: table, fts: fts, expressions: expressions, condition: condition)
        }
    }

    static func drop(_ connection: Connection, collection: Collection, name: String, kind: Kind) throws {
        let table = collection.table
        switch kind {
        case .value:
            try connection.execute("DROP INDEX IF EXISTS \(valueIndexName(table: table, name: name))")
        case .fullText:
            try dropTableAndTriggers(connection, fullTextTableName(table: table, name: name))
        case .array:
            try connection.execute("DROP INDEX IF EXISTS \(arrayIndexName(table: table, name: name))")
        }
        try connection.run(
            "DELETE FROM quire_indexes WHERE collection_id = ? AND name = ?", [.integer(collection.id), .text(name)])
        if kind == .array {
            try dropUnusedElementTables(connection, collectionID: collection.id)
        }
    }

    /// Drops a table an index fills through triggers (a full-text table, an array index's
    /// element table) and its triggers, `<name>_insert`, `_delete` and `_update`.
    static func dropTableAndTriggers(_ connection: Connection, _ name: String) throws {
        try connection.execute(
            """
            DROP TRIGGER IF EXISTS \(name)_insert;
            DROP TRIGGER IF EXISTS \(name)_delete;
            DROP TRIGGER IF EXISTS \(name)_update;
            DROP TABLE IF EXISTS \(name);
            """)
    }

    /// Makes every full-text and array index again from its definition, as files before schema
    /// version 7 need: their triggers read new bodies with SQLite's JSON functions straight
    /// from the `body` column, and a body stored with bare keys (`quire_body.h`) is JSON only
    /// through `quire_body` (or `quire_extract`).
    static func rebuildBodyReadingIndexes(_ connection: Connection) throws {
        let indexes = try connection.query(
            "SELECT collection_id, name, kind, definition FROM quire_indexes WHERE kind IN (?, ?) ORDER BY collection_id, name",
            [.text(Kind.fullText.rawValue), .text(Kind.array.rawValue)]
        ) { row in (row.int64(at: 0), row.text(at: 1) ?? "", row.text(at: 2) ?? "", row.text(at: 3) ?? "{}") }
        for collectionID in Set(indexes.map(\.0)) { try dropElementTables(connection, collectionID: collectionID) }
        for (collectionID, name, kindText, json) in indexes {
            guard let kind = Kind(rawValue: kindText) else { continue }
            let table = StoreSchema.tableName(collectionID)
            if kind == .fullText { try dropTableAndTriggers(connection, fullTextTableName(table: table, name: name)) }
            let definition = Definition(kind: kind, json: (try? JSONReader.parse(json)) ?? .object([:]))
            try createObjects(connection, table: table, name: name, definition: definition)
        }
    }

    /// Drops every FTS table and array index element table of the collection `id` (the
    /// collection's own table, dropped separately, takes its triggers and value indexes with it).
    static func dropIndexTables(_ connection: Connection, collectionID id: Int64) throws {
        try dropElementTables(connection, collectionID: id)
        let prefix = StoreSchema.tableName(id) + "_fts_"
        let tables = try connection.query(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' AND substr(name, 1, ?) = ?",
            [.integer(Int64(prefix.count)), .text(prefix)]
        ) { $0.text(at: 0) ?? "" }
        for table in tables {
            try connection.execute("DROP TABLE IF EXISTS \(table)")
        }
    }
}
