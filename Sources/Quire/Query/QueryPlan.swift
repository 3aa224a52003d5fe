/// The one form a query takes before it becomes SQL, whether it was built with
/// ``QueryBuilder`` or parsed from SQL++ by ``Database/createQuery(_:)``.
struct QueryPlan: Sendable {
    /// A collection read under an alias.
    struct Source: Sendable {
        let collection: Collection
        let alias: String
    }

    /// A joined source and how it joins.
    struct JoinClause: Sendable {
        let kind: Join.Kind
        let source: Source
        let condition: PlanExpression?
    }

    /// An UNNEST: one row for each element of an array of an earlier source's row, the
    /// element known by `alias`.
    struct UnnestClause: Sendable {
        /// The array: a property of a data source (a collection or an earlier UNNEST).
        let expression: PlanExpression
        let alias: String
        /// How many joins come before it, which places it among them.
        let afterJoins: Int
    }

    /// One result column.
    struct Column: Sendable {
        let expression: PlanExpression
        let alias: String?
    }

    /// One ORDER BY key.
    struct OrderTerm: Sendable {
        let expression: PlanExpression
        let descending: Bool
    }

    var distinct = false
    var columns: [Column]
    var from: Source
    var joins: [JoinClause] = []
    var unnests: [UnnestClause] = []
    var whereClause: PlanExpression?
    var groupBy: [PlanExpression] = []
    var having: PlanExpression?
    var orderBy: [OrderTerm] = []
    var limit: PlanExpression?
    var offset: PlanExpression?

    /// Every source, the FROM source first.
    var sources: [Source] { [from] + joins.map(\.source) }

    /// The database the query runs on: the FROM collection's.
    var database: Database { from.collection.database }

    /// Every expression of the query, for checks that look at all of them.
    var allExpressions: [PlanExpression] {
        columns.map(\.expression) + joins.compactMap(\.condition) + unnests.map(\.expression)
            + [whereClause, having, limit, offset].compactMap { $0 }
            + groupBy + orderBy.map(\.expression)
    }

    /// The names of the parameters the query uses, sorted.
    var parameterNames: [String] {
        var names = Set<String>()
        for expression in allExpressions {
            _ = expression.contains { node in
                if case .parameter(let name) = node { names.insert(name) }
                return false
            }
        }
        return names.sorted()
    }

    /// Checks what does not depend on the database: aliases are unique, every join that
    /// needs a condition has one, and sources of joined collections belong to one database.
    func validate() throws {
        var aliases = Set<String>()
        for source in sources {
            guard aliases.insert(source.alias).inserted else {
                throw QuireError(
                    .invalidQuery,
                    "the data source alias '\(source.alias)' is used twice; give each source its own alias")
            }
            guard source.collection.database.core === from.collection.database.core else {
                throw QuireError(
                    .invalidQuery,
                    "collection \(source.collection.fullName) belongs to another database than \(from.collection.fullName)"
                )
            }
        }
        for unnest in unnests {
            guard aliases.insert(unnest.alias).inserted else {
                throw QuireError(
                    .invalidQuery,
                    "the alias '\(unnest.alias)' of an UNNEST is used twice; give each source its own alias")
            }
        }
        for join in joins {
            switch (join.kind, join.condition) {
            case (.cross, .some):
                throw QuireError(.invalidQuery, "a cross join takes no ON condition (source '\(join.source.alias)')")
            case (.inner, nil), (.leftOuter, nil):
                throw QuireError(.invalidQuery, "the join of '\(join.source.alias)' needs an ON condition")
            default:
                break
            }
        }
        if columns.isEmpty {
            throw QuireError(.invalidQuery, "a query must select at least one result")
        }
    }
}
