/// Builds queries in Swift, clause by clause, as Couchbase Lite's `QueryBuilder` does:
///
/// ```swift
/// let query = QueryBuilder
///     .select(SelectResult.expression(Meta.id), SelectResult.property("name"))
///     .from(DataSource.collection(hotels).as("h"))
///     .where(Expression.property("city").equalTo(Expression.parameter("city")))
///     .orderBy(Ordering.property("name").ascending())
///     .limit(Expression.int(10))
/// ```
public enum QueryBuilder {
    /// Starts a query that returns `results`.
    public static func select(_ results: SelectResult...) -> Select {
        Select(results: results, distinct: false)
    }

    /// Starts a query that returns `results` (an array, for results built at run time).
    public static func select(_ results: [SelectResult]) -> Select {
        Select(results: results, distinct: false)
    }

    /// Starts a query that returns `results`, each distinct row once.
    public static func selectDistinct(_ results: SelectResult...) -> Select {
        Select(results: results, distinct: true)
    }

    /// Starts a query that returns `results`, each distinct row once.
    public static func selectDistinct(_ results: [SelectResult]) -> Select {
        Select(results: results, distinct: true)
    }
}
