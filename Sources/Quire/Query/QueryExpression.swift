/// The one concrete expression type behind the protocols.
struct QueryExpression: PropertyExpressionProtocol, MetaExpressionProtocol, VariableExpressionProtocol {
    let node: ExpressionNode

    init(_ plan: PlanExpression) {
        node = ExpressionNode(plan)
    }

    func from(_ alias: String) -> any ExpressionProtocol {
        switch node.plan {
        case .property(let path, _): return QueryExpression(.property(path, source: alias))
        case .star: return QueryExpression(.star(source: alias))
        case .meta(let property, _): return QueryExpression(.meta(property, source: alias))
        default: return self
        }
    }
}
