import Quire

/// The query and index steps on the Quire engine.
enum QuireQueries {
    /// Runs SQL++ text with named parameters; returns the rows as objects (MISSING columns
    /// left out, NULL ones present).
    static func run(_ query: Step.Query, on database: Database) throws -> SpecValue {
        let compiled = try prepare(query, on: database)
        return .array(try compiled.execute().allResults().map { SpecValue(json: $0.toJSONValue()) })
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
        if !query.parameters.isEmpty {
            let parameters = Parameters()
            for (name, value) in query.parameters {
                parameters.setJSONValue(value.jsonValue, forName: name)
            }
            compiled.parameters = parameters
        }
        return compiled
    }

    static func createIndex(_ index: Step.Index, in collection: Collection) throws {
        switch index.kind {
        case .value:
            try collection.createIndex(
                withName: index.name, config: ValueIndexConfiguration(index.expressions, where: index.whereClause))
        case .fullText:
            try collection.createIndex(
                withName: index.name,
                config: FullTextIndexConfiguration(
                    index.expressions, where: index.whereClause, ignoreAccents: index.ignoreAccents,
                    language: index.language ?? "en"))
        }
    }

    static func deleteIndex(_ name: String, in collection: Collection) throws {
        try collection.deleteIndex(forName: name)
    }

    static func indexes(in collection: Collection) throws -> [String] {
        try collection.indexes()
    }
}
