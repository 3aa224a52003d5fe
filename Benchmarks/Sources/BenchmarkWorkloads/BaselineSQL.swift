/// The hand-written SQL both baselines run (the C API and GRDB), over their table
/// `docs (key TEXT NOT NULL UNIQUE, body TEXT NOT NULL)`, an ordinary rowid table.
enum BaselineSQL {
    /// IDs and `name.last` of the people in state `?1`.
    static let stateQuery = """
        SELECT key, json_extract(body, '$.name.last') FROM docs
        WHERE json_extract(body, '$.contact.address.state') = ?1
        """
    /// The index on the expression the state query filters on.
    static let createStateIndex = "CREATE INDEX docs_state ON docs (json_extract(body, '$.contact.address.state'))"
    /// Drops it.
    static let dropStateIndex = "DROP INDEX docs_state"
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
