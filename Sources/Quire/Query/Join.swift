/// A join of another data source into a query.
///
/// ```swift
/// Join.leftJoin(DataSource.collection(orders).as("o")).on(Meta.id.from("c").equalTo(Expression.property("customer").from("o")))
/// ```
public struct Join: Sendable {
    /// The kinds of join.
    enum Kind: String, Sendable {
        case inner = "JOIN"
        case leftOuter = "LEFT OUTER JOIN"
        case cross = "CROSS JOIN"
    }

    let kind: Kind
    let source: DataSource
    let condition: PlanExpression?

    /// An inner join; give its condition with ``JoinOn/on(_:)``.
    public static func join(_ dataSource: DataSource) -> JoinOn { JoinOn(kind: .inner, source: dataSource) }

    /// An inner join; give its condition with ``JoinOn/on(_:)``.
    public static func innerJoin(_ dataSource: DataSource) -> JoinOn { JoinOn(kind: .inner, source: dataSource) }

    /// A left outer join: rows of the left side without a match are kept, the right side's
    /// properties MISSING.
    public static func leftJoin(_ dataSource: DataSource) -> JoinOn { JoinOn(kind: .leftOuter, source: dataSource) }

    /// A left outer join (the same as ``leftJoin(_:)``).
    public static func leftOuterJoin(_ dataSource: DataSource) -> JoinOn {
        JoinOn(kind: .leftOuter, source: dataSource)
    }

    /// Every combination of rows; it takes no condition.
    public static func crossJoin(_ dataSource: DataSource) -> Join {
        Join(kind: .cross, source: dataSource, condition: nil)
    }

    var plan: QueryPlan.JoinClause {
        QueryPlan.JoinClause(kind: kind, source: source.plan, condition: condition)
    }
}

/// A join waiting for its condition.
public struct JoinOn: Sendable {
    let kind: Join.Kind
    let source: DataSource

    /// The condition rows of both sides must meet.
    public func on(_ expression: any ExpressionProtocol) -> Join {
        Join(kind: kind, source: source, condition: expression.plan)
    }
}
