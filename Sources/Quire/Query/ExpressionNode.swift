/// Quire's own form of a query expression: a node of the query plan. Apps never build one
/// directly; every ``ExpressionProtocol`` carries one.
public struct ExpressionNode: Sendable, Hashable {
    let plan: PlanExpression

    init(_ plan: PlanExpression) {
        self.plan = plan
    }
}
