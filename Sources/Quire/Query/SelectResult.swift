/// One column of a query's results.
///
/// Result keys: the alias when given; otherwise the last key of a property path
/// (`contact.city` is `city`), the metadata name for ``Meta`` (`id`, `sequence`, ...), the
/// data source's alias for ``all()``, and `$1`, `$2`, ... (the column's position) for
/// anything else.
public struct SelectResult: Sendable {
    let expression: PlanExpression
    let alias: String?

    /// The property at `property`.
    public static func property(_ property: String) -> SelectResult {
        SelectResult(expression: Expression.property(property).plan, alias: nil)
    }

    /// The value of any expression.
    public static func expression(_ expression: any ExpressionProtocol) -> SelectResult {
        SelectResult(expression: expression.plan, alias: nil)
    }

    /// The whole document (of the only data source, or one column per data source in a join).
    public static func all() -> SelectResult {
        SelectResult(expression: .star(source: nil), alias: nil)
    }

    /// The same column under the key `alias`.
    public func `as`(_ alias: String?) -> SelectResult {
        SelectResult(expression: expression, alias: alias)
    }

    /// For ``all()``: the whole document of the data source with alias `alias`.
    public func from(_ alias: String) -> SelectResult {
        guard case .star = expression else { return self }
        return SelectResult(expression: .star(source: alias), alias: self.alias)
    }
}
