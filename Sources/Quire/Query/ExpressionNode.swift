/// Quire's own form of a query expression: a node of the query plan, which every expression
/// the builders make carries.
package struct ExpressionNode: Sendable, Hashable {
    let plan: PlanExpression

    init(_ plan: PlanExpression) {
        self.plan = plan
    }
}
