/// The SELECT clause, waiting for its data source.
public struct Select: Sendable {
    let results: [SelectResult]
    let distinct: Bool

    /// Names the data source and makes the query.
    public func from(_ dataSource: DataSource) -> Query {
        let plan = QueryPlan(
            distinct: distinct, columns: results.map { QueryPlan.Column(expression: $0.expression, alias: $0.alias) },
            from: dataSource.plan)
        return Query(plan: plan, text: nil)
    }
}
