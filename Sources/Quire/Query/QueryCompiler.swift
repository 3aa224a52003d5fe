/// Turns a ``QueryPlan`` into one SQLite statement over the collections' tables.
///
/// The SQL reads the stored JSON with `json_extract(body, '<path>')` for values and
/// `json_type(body, '<path>')` for types, the latter telling MISSING (SQL NULL) from JSON
/// null (`'null'`). Every result column comes as a pair (value, type), so booleans, nested
/// containers, NULL and MISSING read back exactly.
///
/// Canonical forms, shared with index definitions so the planner can match them:
/// - a property is `json_extract(body, '$.a.b[0]')`, unqualified when the query has a single
///   data source (it is qualified by the source's SQL alias, `s1.body`, in joins);
/// - live documents are `flags & 1 = 0`, the condition of every Quire index;
/// - constants are SQL literals; only query parameters and the clock are bound.
final class QueryCompiler {
    /// A data source as the SQL sees it.
    struct SourceRef {
        let alias: String
        let sqlAlias: String
        let collection: Collection?
        let table: String
        let isLeftJoined: Bool
        /// How an UNNEST source reads its elements; nil for a collection.
        var unnest: UnnestRef? = nil
    }

    /// A variable of an `ANY`/`EVERY` expression: a `json_each` row.
    struct VariableRef {
        let sqlAlias: String
        /// The JSON text `json_each` iterated over; the row's `fullkey` is a path into it.
        let root: String
    }

    /// How expressions are compiled.
    enum Mode {
        /// A SELECT statement.
        case query
        /// An index expression or a trigger over `<prefix>body` (prefix `""` or `"new."`);
        /// only deterministic, parameter-free, subquery-free expressions are allowed.
        case index(prefix: String)
    }

    let mode: Mode
    var sources: [SourceRef] = []
    /// Whether the query reads one collection and nothing else, so columns go unqualified.
    private var isSingleSource = true
    var variables: [String: VariableRef] = [:]
    var bindings: [CompiledQuery.Binding] = []
    private var bindingNumbers: [CompiledQuery.Binding: Int] = [:]
    private var counter = 0
    /// Full-text joins, by source alias and index name.
    var fullTextJoins: [FullTextJoin] = []
    /// Result aliases, which ORDER BY and HAVING may refer to.
    var resultAliases: [String: PlanExpression] = [:]

    /// A full-text index joined into the query for a MATCH.
    struct FullTextJoin {
        let sourceAlias: String
        let index: String
        let table: String
        let sqlAlias: String
    }

    init(mode: Mode) {
        self.mode = mode
    }

    var isIndexMode: Bool {
        if case .index = mode { return true }
        return false
    }

    /// A fresh SQL alias with `prefix`.
    func nextAlias(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)\(counter)"
    }

    /// The number of the SQL parameter for `binding` (`?n`), allocating it on first use.
    func placeholder(_ binding: CompiledQuery.Binding) -> String {
        if let number = bindingNumbers[binding] { return "?\(number)" }
        bindings.append(binding)
        bindingNumbers[binding] = bindings.count
        return "?\(bindings.count)"
    }

    /// A column of a data source: unqualified when the query reads one source, so that the
    /// SQL matches index definitions word for word.
    func column(_ source: SourceRef, _ name: String) -> String {
        switch mode {
        case .index(let prefix): return prefix + name
        case .query: return isSingleSource && name != "key" ? name : "\(source.sqlAlias).\(name)"
        }
    }

    // MARK: Queries

    /// Compiles `plan`; `fullTextTable` finds the FTS table of an index (nil when the
    /// collection has no full-text index of that name), `indexConditions` gives the WHERE
    /// clauses of a collection's partial indexes, as their SQL text, and `elementTable` the
    /// element table of an array index for an UNNEST path (nil when there is none).
    static func compile(
        _ plan: QueryPlan, fullTextTable: (Collection, String) throws -> String?,
        indexConditions: (Collection) throws -> [String],
        elementTable: (Collection, [PropertyPath]) throws -> String? = { _, _ in nil }
    ) throws -> CompiledQuery {
        try plan.validate()
        let compiler = QueryCompiler(mode: .query)
        return try compiler.compileSelect(
            plan, fullTextTable: fullTextTable, indexConditions: indexConditions, elementTable: elementTable)
    }

    private func compileSelect(
        _ plan: QueryPlan, fullTextTable: (Collection, String) throws -> String?,
        indexConditions: (Collection) throws -> [String], elementTable: (Collection, [PropertyPath]) throws -> String?
    ) throws -> CompiledQuery {
        isSingleSource = plan.sources.count == 1 && plan.unnests.isEmpty
        for (offset, source) in plan.sources.enumerated() {
            let isLeft = offset > 0 && plan.joins[offset - 1].kind == .leftOuter
            sources.append(
                SourceRef(
                    alias: source.alias, sqlAlias: "s\(offset)", collection: source.collection,
                    table: source.collection.table, isLeftJoined: isLeft))
        }
        let unnestJoins = try unnestSources(plan, elementTable: elementTable)
        for column in plan.columns {
            if let alias = column.alias { resultAliases[alias] = column.expression }
        }
        // WHERE, HAVING and ORDER BY may name a result by its alias, as in Couchbase Lite.
        let whereClause = try plan.whereClause.map(substitutingResultAliases).map { clause in
            clause.rewritten { node in
                guard case .match(let index, let source, .literal(.string(let text))) = node else { return nil }
                return .match(
                    index: index, source: source, query: .literal(.string(QueryCompiler.fullTextQueryText(text))))
            }
        }

        // MATCH may only narrow the whole query: at the top of WHERE or in its top-level AND.
        let conjuncts = whereClause?.conjuncts ?? []
        for case .match(let index, let sourceAlias, _) in conjuncts {
            try addFullTextJoin(index: index, sourceAlias: sourceAlias, fullTextTable: fullTextTable)
        }

        var selectList: [String] = []
        var columns: [CompiledQuery.Column] = []
        var names = ResultNames()
        for column in plan.columns {
            if case .star(let alias) = column.expression {
                let targets = try alias.map { [try source(named: $0)] } ?? sources
                for target in targets {
                    if target.unnest != nil {
                        let element = PlanExpression.property(PropertyPath(), source: target.alias)
                        selectList.append(try value(element))
                        selectList.append(try type(element))
                        columns.append(
                            CompiledQuery.Column(
                                name: try names.claim(column.alias, implied: target.alias),
                                valueIndex: Int32(selectList.count - 2), typeIndex: Int32(selectList.count - 1)))
                        continue
                    }
                    let body = self.column(target, "body")
                    selectList.append("quire_body(\(body))")
                    selectList.append("CASE WHEN \(body) IS NULL THEN NULL ELSE 'object' END")
                    columns.append(
                        CompiledQuery.Column(
                            name: try names.claim(column.alias, implied: target.alias),
                            valueIndex: Int32(selectList.count - 2), typeIndex: Int32(selectList.count - 1)))
                }
                continue
            }
            // Without DISTINCT (which compares a value and its type apart, so that 1 and 1.0
            // stay two rows), a path into a body is read in one scan.
            if !plan.distinct, let combined = try combinedResult(column.expression) {
                selectList.append(combined)
                columns.append(
                    CompiledQuery.Column(
                        name: try names.claim(column.alias, implied: impliedName(column.expression)),
                        combinedIndex: Int32(selectList.count - 1)))
                continue
            }
            selectList.append(try value(column.expression))
            selectList.append(try type(column.expression))
            columns.append(
                CompiledQuery.Column(
                    name: try names.claim(column.alias, implied: impliedName(column.expression)),
                    valueIndex: Int32(selectList.count - 2), typeIndex: Int32(selectList.count - 1)))
        }

        let deletedVisible = Set(plan.allExpressions.flatMap(sourcesTestingDeletion))
        var sql = "SELECT \(plan.distinct ? "DISTINCT " : "")\(selectList.joined(separator: ", "))"
        sql += " FROM \(sources[0].table) AS \(sources[0].sqlAlias)"
        var whereTerms = [liveFilter(sources[0], deletedVisible: deletedVisible.contains(sources[0].alias))]
        for (offset, join) in plan.joins.enumerated() {
            for unnest in unnestJoins where unnest.afterJoins == offset { sql += " " + unnest.sql }
            let ref = sources[offset + 1]
            let filter = liveFilter(ref, deletedVisible: deletedVisible.contains(ref.alias))
            switch join.kind {
            case .cross:
                sql += " CROSS JOIN \(ref.table) AS \(ref.sqlAlias)"
                whereTerms.append(filter)
            case .inner, .leftOuter:
                let condition = try join.condition.map { try self.condition($0) } ?? "1"
                sql += " \(join.kind == .inner ? "JOIN" : "LEFT OUTER JOIN") \(ref.table) AS \(ref.sqlAlias)"
                sql += " ON \(condition) AND \(filter)"
            }
        }
        for unnest in unnestJoins where unnest.afterJoins == plan.joins.count { sql += " " + unnest.sql }
        for join in fullTextJoins {
            guard let ref = sources.first(where: { $0.alias == join.sourceAlias }) else { continue }
            sql += " JOIN \(join.table) AS \(join.sqlAlias) ON \(join.sqlAlias).rowid = \(ref.sqlAlias).sequence"
        }
        if let whereClause {
            whereTerms.append(contentsOf: try whereClause.conjuncts.map { try condition($0) })
            whereTerms.append(contentsOf: try impliedPresence(whereClause.conjuncts, indexConditions: indexConditions))
        }
        sql += " WHERE " + whereTerms.joined(separator: " AND ")
        if !plan.groupBy.isEmpty {
            sql += " GROUP BY " + (try plan.groupBy.map { try blobNullOperand($0) }).joined(separator: ", ")
        }
        if let having = plan.having {
            sql += " HAVING " + (try condition(try substitutingResultAliases(having)))
        }
        if !plan.orderBy.isEmpty {
            let valued = try valuedByComparison(whereClause?.conjuncts ?? [])
            let terms = try plan.orderBy.flatMap { term -> [String] in
                let expression = try substitutingResultAliases(term.expression)
                if case .rank(let index, let alias) = expression {
                    // FTS5 sorts by its own rank column (lower is better) without a sort step.
                    let join = try fullTextJoin(index: index, sourceAlias: alias, function: "RANK")
                    return ["\(join.sqlAlias).rank" + (term.descending ? "" : " DESC")]
                }
                return try orderingKeys(expression, descending: term.descending, valued: valued)
            }
            sql += " ORDER BY " + terms.joined(separator: ", ")
        }
        if let limit = plan.limit {
            // SQLite reads a negative LIMIT as "no limit"; in Couchbase Lite it is no rows.
            let count = try value(limit)
            sql += " LIMIT (CASE WHEN \(count) < 0 THEN 0 ELSE \(count) END)"
        } else if plan.offset != nil {
            sql += " LIMIT -1"
        }
        if let offset = plan.offset {
            sql += " OFFSET \(try value(offset))"
        }
        let ids = Set(plan.sources.map(\.collection.id))
        return CompiledQuery(sql: sql, bindings: bindings, columns: columns, collectionIDs: ids)
    }

    /// `x IS NOT MISSING` for every property a top-level comparison requires to hold a value,
    /// when a partial index of the source has that condition: always true of the rows the
    /// comparison keeps, and written exactly as the index condition compiles, so SQLite sees
    /// that the partial index covers the query (LiteCore QueryTest "Partial Index with NOT
    /// MISSING"). Without such an index the term is left out: SQLite would evaluate it on
    /// every row it reads, parsing the body once more.
    private func impliedPresence(
        _ conjuncts: [PlanExpression], indexConditions: (Collection) throws -> [String]
    ) throws -> [String] {
        guard sources.count == 1, let collection = sources[0].collection else { return [] }
        var terms: [String] = []
        for conjunct in conjuncts {
            var operands: [PlanExpression] = []
            switch conjunct {
            case .binary(let op, let left, let right)
            where [.equal, .less, .lessOrEqual, .greater, .greaterOrEqual].contains(op):
                operands = [left, right]
            case .between(let operand, _, _, false):
                operands = [operand]
            default:
                continue
            }
            for case .property(let path, let alias) in operands where !path.isEmpty {
                let test = try value(.test(.property(path, source: alias), .isNotMissing))
                if !terms.contains(test) { terms.append(test) }
            }
        }
        // The catalog is read only when some comparison could use such an index.
        guard !terms.isEmpty else { return [] }
        let conditions = try indexConditions(collection)
        return terms.filter { term in conditions.contains { $0.contains(term) } }
    }

    /// Live, unexpired documents of a source; deleted ones too when the query mentions the
    /// source's `Meta.isDeleted` (or a bare `meta()`) anywhere, as LiteCore's SelectNode does.
    private func liveFilter(_ source: SourceRef, deletedVisible: Bool) -> String {
        let expiration = column(source, "expiration")
        let unexpired = "(\(expiration) IS NULL OR \(expiration) > \(placeholder(.now)))"
        return deletedVisible ? unexpired : "\(column(source, "flags")) & 1 = 0 AND \(unexpired)"
    }

    /// The aliases of sources whose deletion flag an expression reads.
    private func sourcesTestingDeletion(_ expression: PlanExpression) -> [String] {
        var aliases: [String] = []
        _ = expression.contains { node in
            if case .meta(.isDeleted, let alias) = node { aliases.append(alias ?? sources[0].alias) }
            return false
        }
        return aliases
    }

    private func addFullTextJoin(
        index: String, sourceAlias: String?, fullTextTable: (Collection, String) throws -> String?
    ) throws {
        // One FTS table answers one MATCH per query: LiteCore refuses a second MATCH of the same
        // index (c4QueryTest "C4Query FTS Multiple queries"); combine the terms in one query
        // string instead (`'Hwy Blvd'`, `'Hwy OR Blvd'`).
        if fullTextJoins.contains(where: { $0.index == index && (sourceAlias == nil || $0.sourceAlias == sourceAlias) })
        {
            throw QuireError(
                .invalidQuery,
                "multiple MATCHes of the full-text index '\(index)' are not allowed; combine their terms in one MATCH")
        }
        let candidates = try sourceAlias.map { [try source(named: $0)] } ?? sources
        var found: [(SourceRef, String)] = []
        for candidate in candidates {
            if let collection = candidate.collection, let table = try fullTextTable(collection, index) {
                found.append((candidate, table))
            }
        }
        // A name left unqualified means the FROM source's index when that source has it, as in
        // Couchbase Lite (DatabaseTest.testFTSQueryWithJoin joins a collection with itself).
        if found.count > 1, let main = found.first(where: { $0.0.alias == sources[0].alias }) {
            found = [main]
        }
        // Couchbase Lite 3.2 answers missingIndex ("'match' test requires a full-text index").
        guard let (ref, table) = found.first else {
            throw QuireError(
                .missingIndex,
                "there is no full-text index named '\(index)' on \(candidates.map { $0.alias }.joined(separator: ", "))"
            )
        }
        if found.count > 1 {
            throw QuireError(
                .invalidQuery,
                "the full-text index '\(index)' exists on several data sources; qualify it as '<alias>.\(index)'")
        }
        fullTextJoins.append(FullTextJoin(sourceAlias: ref.alias, index: index, table: table, sqlAlias: nextAlias("f")))
    }

    /// The full-text join a MATCH or RANK refers to.
    func fullTextJoin(index: String, sourceAlias: String?, function: String) throws -> FullTextJoin {
        guard
            let join = fullTextJoins.first(where: {
                $0.index == index && (sourceAlias == nil || $0.sourceAlias == sourceAlias)
            })
        else {
            throw QuireError(
                .invalidQuery,
                function == "MATCH"
                    ? "MATCH(\(index), ...) may appear only at the top level of the WHERE clause or in a top-level AND"
                    : "RANK(\(index)) needs a MATCH with the same index in the WHERE clause")
        }
        return join
    }

    /// The source with `alias`, or invalidQuery.
    func source(named alias: String) throws -> SourceRef {
        guard let found = sources.first(where: { $0.alias == alias }) else {
            throw QuireError(
                .invalidQuery,
                "unknown data source '\(alias)'; the query reads \(sources.map { "'\($0.alias)'" }.joined(separator: ", "))"
            )
        }
        return found
    }

    /// WHERE, HAVING and ORDER BY may name a result by its alias, and a path into it
    /// (`ORDER BY answer[1]`). A source's alias and an ANY/EVERY variable take precedence.
    private func substitutingResultAliases(_ expression: PlanExpression) throws -> PlanExpression {
        guard !resultAliases.isEmpty else { return expression }
        var variables: Set<String> = []
        _ = expression.contains { node in
            if case .quantified(_, let variable, _, _) = node { variables.insert(variable) }
            return false
        }
        return try expression.rewritten { node in
            guard case .property(let path, nil) = node, let key = path.firstKey, let aliased = resultAliases[key],
                !variables.contains(key), !sources.contains(where: { $0.alias == key })
            else { return nil }
            let rest = path.droppingFirst
            if rest.isEmpty { return aliased }
            switch aliased {
            case .property(let inner, let source):
                return .property(inner.appending(rest), source: source)
            case .variable(let name, let inner):
                return .variable(name, path: inner.appending(rest))
            default:
                throw QuireError(
                    .invalidQuery,
                    "'\(path)' reads into the result '\(key)', which is computed; only a result that is a property can be read into"
                )
            }
        }
    }

    /// The name an unaliased result takes from its expression: a property's last key, a
    /// metadata property's name; nil for everything else, including a path ending in an array
    /// index (`orderlines[0]`), which ``ResultNames`` numbers `$1`, `$2`, ...
    private func impliedName(_ expression: PlanExpression) -> String? {
        switch expression {
        case .property(let path, let source):
            if path.isEmpty { return source ?? sources[0].alias }
            if case .key(let key)? = path.components.last { return key }
            return nil
        case .meta(let property, _):
            return property.columnName
        case .function(TypedFunctions.metaObject, let arguments):
            // LiteCore's MetaNode::asColumnName: a bare meta() is named after its source.
            if case .meta(_, let source)? = arguments.dropFirst().first { return source ?? sources[0].alias }
            return sources[0].alias
        case .variable(let name, let path):
            if path.isEmpty { return name }
            if case .key(let key)? = path.components.last { return key }
            return nil
        case .collate(let inner, _):
            return impliedName(inner)
        default:
            return nil
        }
    }

    /// A bare `meta([alias])`: the document's id, sequence, deletion flag (0 or 1) and
    /// expiration (when set) as an object, as LiteCore's "Query META" test reads it.
    static func metaObject(source: String?) -> PlanExpression {
        .function(
            TypedFunctions.metaObject,
            [
                .literal(.string("id")), .meta(.id, source: source),
                .literal(.string("sequence")), .meta(.sequence, source: source),
                .literal(.string("deleted")), .binary(.add, .meta(.isDeleted, source: source), .literal(.int(0))),
                .literal(.string("expiration")), .meta(.expiration, source: source),
            ])
    }

    // MARK: Index expressions

    /// Compiles an index expression or condition over one collection's `<prefix>body`.
    static func indexExpression(
        _ expression: PlanExpression, prefix: String = ""
    ) throws -> String {
        let compiler = QueryCompiler(mode: .index(prefix: prefix))
        compiler.sources = [SourceRef(alias: "", sqlAlias: "", collection: nil, table: "", isLeftJoined: false)]
        return try compiler.value(expression)
    }
}
