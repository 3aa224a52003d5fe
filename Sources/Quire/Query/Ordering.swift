/// One key of a query's ORDER BY.
public struct Ordering: Sendable {
    let expression: PlanExpression
    let isDescending: Bool

    /// Order by the property at `property`.
    public static func property(_ property: String) -> Ordering {
        Ordering(expression: Expression.property(property).plan, isDescending: false)
    }

    /// Order by any expression (use ``ExpressionProtocol/collate(_:)`` for a collation).
    public static func expression(_ expression: any ExpressionProtocol) -> Ordering {
        Ordering(expression: expression.plan, isDescending: false)
    }

    /// Smallest first (the default).
    public func ascending() -> Ordering { Ordering(expression: expression, isDescending: false) }

    /// Largest first.
    public func descending() -> Ordering { Ordering(expression: expression, isDescending: true) }
}
