/// The hand-written SQL both baselines run (the C API and GRDB), over their table
/// `docs (key TEXT NOT NULL UNIQUE, body TEXT NOT NULL)`, an ordinary rowid table.
enum BaselineSQL {
    /// The IDs and selected property of the documents that `subject` asks for (`?1`).
    static func query(_ subject: QuerySubject) -> String {
        """
        SELECT key, json_extract(body, '$.\(subject.selectPath)') FROM docs
        WHERE json_extract(body, '$.\(subject.filterPath)') = ?1
        """
    }
    /// The index on the expression `subject`'s query filters on.
    static func createIndex(_ subject: QuerySubject) -> String {
        "CREATE INDEX \(subject.indexName) ON docs (json_extract(body, '$.\(subject.filterPath)'))"
    }
    /// Drops it.
    static func dropIndex(_ subject: QuerySubject) -> String { "DROP INDEX \(subject.indexName)" }
    /// An FTS5 table over every hotel's `description`, with the tokenizer Quire uses for an
    /// English full-text index (porter stemming, accents kept), its rowids the documents'.
    static let createDescriptionIndex = """
        CREATE VIRTUAL TABLE docs_text USING fts5(description, tokenize = 'porter unicode61 remove_diacritics 0');
        INSERT INTO docs_text (rowid, description) SELECT rowid, json_extract(body, '$.description') FROM docs;
        """
    /// IDs and names of the hotels whose description matches `?1`.
    static let matchDescription = """
        SELECT docs.key, json_extract(docs.body, '$.name') FROM docs_text JOIN docs ON docs.rowid = docs_text.rowid
        WHERE docs_text MATCH ?1
        """
}
