/// UNNEST sources: each element of an array becomes a row, joined to the row it came from.
///
/// Without an array index, an UNNEST is SQLite's `json_each` over the array, and an element's
/// properties are read from the document at the element's `fullkey` (so a scalar element, a
/// nested array and a property of an element all read through one JSON path). With an array
/// index whose path leads to the same array, it reads the index's element table instead,
/// where each row's `body` is the element: its properties compile to
/// `quire_extract(<alias>.body, '$.path')`, the very expressions the index is made on, so
/// SQLite searches the index for a condition on them.
extension QueryCompiler {
    /// How an UNNEST source reads its elements.
    struct UnnestRef {
        /// The JSON text whose paths the `json_each` rows' `fullkey` give; nil when the source
        /// is an element table, whose `body` column is the element.
        let root: String?
        /// The collection the array belongs to.
        let collection: Collection
        /// The array-index levels leading to the array from the documents, when the path is
        /// one of keys only (nil otherwise: no element table can serve it).
        let levels: [PropertyPath]?
    }

    /// Where `path` of a source's row is: its document body, or the element of an UNNEST.
    func sourceLocation(_ source: SourceRef, _ path: PropertyPath) -> Location {
        guard let unnest = source.unnest else {
            return Location(root: column(source, "body"), path: QueryCompiler.quoted(path.jsonPath), readsBody: true)
        }
        guard let root = unnest.root else {
            return Location(
                root: "\(source.sqlAlias).body", path: QueryCompiler.quoted(path.jsonPath), readsBody: true)
        }
        let base = "\(source.sqlAlias).fullkey"
        return Location(root: root, path: path.isEmpty ? base : "\(base) || \(QueryCompiler.quoted(path.suffix))")
    }

    /// The document source `alias` names (nil: the FROM source), for metadata, which an
    /// UNNEST's elements do not have.
    func documentSource(named alias: String?) throws -> SourceRef {
        guard let alias else { return sources[0] }
        let found = try source(named: alias)
        if found.unnest != nil {
            throw QuireError(
                .invalidQuery,
                "'\(alias)' is an UNNEST of an array, not a document: it has no metadata; use meta() of the source it unnests"
            )
        }
        return found
    }

    /// Adds the UNNEST sources of `plan` to ``sources``, in order, and returns the SQL of each
    /// (`JOIN ...`) with the number of joins it follows.
    func unnestSources(_ plan: QueryPlan, elementTable: (Collection, [PropertyPath]) throws -> String?) throws
        -> [(afterJoins: Int, sql: String)]
    {
        var joins: [(afterJoins: Int, sql: String)] = []
        for (offset, unnest) in plan.unnests.enumerated() {
            guard case .property(let path, let sourceAlias) = unnest.expression else {
                throw QuireError(.invalidQuery, "UNNEST takes a property path of a data source, not an expression")
            }
            // The array must be named through a source's alias: with an UNNEST the query has
            // several sources (LiteCore: "does not begin with a declared 'AS' alias").
            var parent: SourceRef
            var rest = path
            if let sourceAlias {
                parent = try source(named: sourceAlias)
            } else if let first = path.firstKey, let named = sources.first(where: { $0.alias == first }) {
                parent = named
                rest = path.droppingFirst
            } else {
                throw QuireError(
                    .invalidQuery,
                    "UNNEST \(path) does not begin with a data source's alias (\(sources.map { "'\($0.alias)'" }.joined(separator: ", ")))"
                )
            }
            try rest.validate()
            let alias = "u\(offset + 1)"
            let collection = parent.unnest?.collection ?? parent.collection
            guard let collection else {
                throw QuireError(.invalidQuery, "UNNEST of '\(parent.alias)' has no collection")
            }
            let keysOnly = !rest.isEmpty && rest.components.allSatisfy { if case .key = $0 { true } else { false } }
            var levels: [PropertyPath]?
            if keysOnly {
                levels = parent.unnest == nil ? [rest] : parent.unnest?.levels.map { $0 + [rest] }
            }
            let sql: String
            let ref: UnnestRef
            if let levels, let table = try elementTable(collection, levels),
                parent.unnest == nil || parent.unnest?.root == nil
            {
                // The parent is a document (its rowid is the sequence) or an element-table row.
                let parentKey = parent.unnest == nil ? column(parent, "sequence") : "\(parent.sqlAlias).rowid"
                sql = "JOIN \(table) AS \(alias) ON \(alias).docid = \(parentKey)"
                ref = UnnestRef(root: nil, collection: collection, levels: levels)
            } else {
                let array = sourceLocation(parent, rest)
                sql = "JOIN json_each(\(array.jsonRoot), \(array.path)) AS \(alias)"
                ref = UnnestRef(root: array.jsonRoot, collection: collection, levels: levels)
            }
            sources.append(
                SourceRef(
                    alias: unnest.alias, sqlAlias: alias, collection: nil, table: "", isLeftJoined: false, unnest: ref))
            joins.append((unnest.afterJoins, sql))
        }
        return joins
    }
}
