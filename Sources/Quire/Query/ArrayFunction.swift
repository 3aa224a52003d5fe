/// Functions on array values.
public enum ArrayFunction {
    /// Whether the array contains `value`; NULL when the expression is not an array.
    public static func contains(_ expression: any ExpressionProtocol, value: any ExpressionProtocol)
        -> any ExpressionProtocol
    {
        QueryExpression(.function("ARRAY_CONTAINS", [expression.plan, value.plan]))
    }

    /// The number of elements; NULL when the expression is not an array.
    public static func length(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        QueryExpression(.function("ARRAY_LENGTH", [expression.plan]))
    }
}
