import Quire

/// The query and index steps on the Quire engine.
enum QuireQueries {
    /// Runs SQL++ text with named parameters; returns the rows as objects (MISSING columns
    /// left out, NULL ones present).
    /// `result` chooses each row's form (or the column names); `reads` reads the result set in
    /// turn, each `next` giving a row or null and each `all` the rows left.
    static func run(_ query: Step.Query, on database: Database) throws -> SpecValue {
        let results = try prepare(query, on: database).execute()
        if query.result == .columnNames { return .array(results.columnNames.map(SpecValue.string)) }
        let form = query.result
        guard let reads = query.reads else { return .array(results.allResults().map { row($0, form) }) }
        return .array(
            reads.map { read in
                switch read {
                case .next: return results.next().map { row($0, form) } ?? .null
                case .all: return .array(results.allResults().map { row($0, form) })
                }
            })
    }

    private static func row(_ result: QueryResult, _ form: Step.QueryResultForm) -> SpecValue {
        switch form {
        case .arrays:
            return .array((0..<result.count).map { result.jsonValue(at: $0).map(SpecValue.init(json:)) ?? .null })
        case .json: return .string(result.toJSON())
        case .rows, .columnNames: return SpecValue(json: result.toJSONValue())
        }
    }

    /// Runs the query and reads every column of every row as an app would, building
    /// nothing for a report: a performance workload's query.
    static func drain(_ query: Step.Query, on database: Database) throws {
        for row in try prepare(query, on: database).execute() {
            for index in 0..<row.count { _ = row.jsonValue(at: index) }
        }
    }

    /// The query's `explain()` text: its SQL, then SQLite's query plan.
    static func explain(_ query: Step.Query, on database: Database) throws -> SpecValue {
        let compiled = try prepare(query, on: database)
        return .string(try compiled.explain())
    }

    private static func prepare(_ query: Step.Query, on database: Database) throws -> Quire.Query {
        let compiled = try database.createQuery(query.sql)
        if !query.parameters.isEmpty { compiled.parameters = parameters(query.parameters) }
        return compiled
    }

    /// Query parameters from a spec's mapping.
    static func parameters(_ values: [String: SpecValue]) -> Parameters {
        let parameters = Parameters()
        for (name, value) in values {
            parameters.setJSONValue(value.jsonValue, forName: name)
        }
        return parameters
    }

    static func createIndex(_ index: Step.Index, in collection: Collection) throws {
        switch index.kind {
        case .value:
            try collection.createIndex(
                withName: index.name, config: ValueIndexConfiguration(index.expressions, where: index.whereClause))
        case .fullText:
            // A build without the Snowball trait stems English with FTS5's porter tokenizer
            // (stop words indexed) and refuses the other stemmed languages: the case says how
            // Couchbase Lite's Snowball stemmers behave, so it is skipped, not failed.
            let language = index.language ?? "en"
            if !FullTextIndexConfiguration.hasSnowballStemmers,
                FullTextIndexConfiguration.needsSnowball(language: language)
            {
                throw EngineError.missingCapability(
                    .snowball,
                    "a full-text index in '\(language)' stems with Snowball, and this build leaves out the package trait 'Snowball'"
                )
            }
            try collection.createIndex(
                withName: index.name,
                config: FullTextIndexConfiguration(
                    index.expressions, where: index.whereClause, ignoreAccents: index.ignoreAccents,
                    language: language))
        case .array:
            try collection.createIndex(
                withName: index.name,
                config: ArrayIndexConfiguration(
                    path: index.path ?? "", expressions: index.expressions.isEmpty ? nil : index.expressions))
        }
    }

    static func deleteIndex(_ name: String, in collection: Collection) throws {
        try collection.deleteIndex(forName: name)
    }

    static func indexes(in collection: Collection) throws -> [String] {
        try collection.indexes()
    }
}
