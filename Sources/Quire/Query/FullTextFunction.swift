/// Full-text search functions; they need a ``FullTextIndexConfiguration`` index.
public enum FullTextFunction {
    /// True for documents whose indexed text matches `query` (FTS5 query syntax: words,
    /// `"phrases"`, `prefix*`, `AND`, `OR`, `NOT`). It may appear only at the top level of a
    /// WHERE clause or in a top-level AND. `indexName` may be qualified with a data source
    /// alias (`"a.nameIndex"`).
    public static func match(_ indexName: String, query: String) -> any ExpressionProtocol {
        let (source, index) = FullTextFunction.split(indexName)
        return QueryExpression(.match(index: index, source: source, query: .literal(.string(query))))
    }

    /// Like ``match(_:query:)`` with the query text from an expression (such as a parameter).
    public static func match(_ indexName: String, query: any ExpressionProtocol) -> any ExpressionProtocol {
        let (source, index) = FullTextFunction.split(indexName)
        return QueryExpression(.match(index: index, source: source, query: query.plan))
    }

    /// The relevance of the match with `indexName` (higher is better), for ordering.
    public static func rank(_ indexName: String) -> any ExpressionProtocol {
        let (source, index) = FullTextFunction.split(indexName)
        return QueryExpression(.rank(index: index, source: source))
    }

    static func split(_ name: String) -> (source: String?, index: String) {
        guard let dot = name.firstIndex(of: ".") else { return (nil, name) }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}
