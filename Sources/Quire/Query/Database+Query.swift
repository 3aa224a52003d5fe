extension Database {
    /// Parses a SQL++ query (Couchbase Lite's grammar and functions, listed in the README),
    /// looking up its collections now. A collection is named `scope.collection`, or
    /// `collection` in the default scope; `_`, `_default` and the database's name stand for
    /// the default collection. A bad query is invalidQuery, with the position of the fault and
    /// what was expected there.
    ///
    /// - Throws: ``QuireError/Code/invalidQuery`` for a query that does not parse or names an
    ///   unknown function, with the position and what was expected; ``QuireError/Code/notOpen``
    ///   when the database is closed.
    public func createQuery(_ query: String) throws -> Query {
        try checkOpen()
        let plan = try SQLPPParser.parseQuery(query) { source in
            try self.resolveSource(source, in: query)
        }
        try plan.validate()
        return Query(plan: plan, text: query)
    }

    private func resolveSource(_ source: SQLPPParser.SourceName, in text: String) throws -> Collection {
        let full = source.scope.map { "\($0).\(source.name)" } ?? source.name
        let found: Collection?
        do {
            if let scope = source.scope {
                found = try collection(name: source.name, scope: scope)
            } else if source.name == "_" || source.name == name {
                found = try defaultCollection()
            } else {
                found = try collection(name: source.name, scope: nil)
            }
        } catch let error as QuireError where error.code == .invalidParameter {
            found = nil
        }
        guard let found else {
            throw QuireError(
                .invalidQuery,
                "invalid SQL++ at \(SQLPPTokenizer.position(of: source.offset, in: text)): no collection named '\(full)' in database '\(name)'"
            )
        }
        return found
    }
}
