/// Quantified tests over the elements of an array:
///
/// ```swift
/// let tag = ArrayExpression.variable("tag")
/// ArrayExpression.any(tag).in(Expression.property("tags")).satisfies(tag.equalTo(Expression.string("swift")))
/// ```
public enum ArrayExpression {
    /// A variable that stands for each element in turn; `"tag.name"` reads inside it.
    public static func variable(_ name: String) -> any VariableExpressionProtocol {
        do {
            let path = try PropertyPath.parse(name)
            guard let variable = path.firstKey else {
                throw QuireError(.invalidQuery, "invalid variable '\(name)': it must start with a name")
            }
            return QueryExpression(.variable(variable, path: path.droppingFirst))
        } catch {
            return QueryExpression(.function(FunctionCatalog.invalid, [.literal(.string("\(error)"))]))
        }
    }

    /// True when at least one element satisfies the condition.
    public static func any(_ variable: any VariableExpressionProtocol) -> ArrayExpressionIn {
        ArrayExpressionIn(quantifier: .any, variable: variable)
    }

    /// True when every element satisfies the condition (also for an empty array).
    public static func every(_ variable: any VariableExpressionProtocol) -> ArrayExpressionIn {
        ArrayExpressionIn(quantifier: .every, variable: variable)
    }

    /// True when the array is not empty and every element satisfies the condition.
    public static func anyAndEvery(_ variable: any VariableExpressionProtocol) -> ArrayExpressionIn {
        ArrayExpressionIn(quantifier: .anyAndEvery, variable: variable)
    }
}

/// The `IN` step of an array quantifier.
public struct ArrayExpressionIn: Sendable {
    let quantifier: PlanExpression.Quantifier
    let variable: any VariableExpressionProtocol

    /// The array whose elements the variable ranges over.
    public func `in`(_ expression: any ExpressionProtocol) -> ArrayExpressionSatisfies {
        ArrayExpressionSatisfies(quantifier: quantifier, variable: variable, array: expression)
    }
}

/// The `SATISFIES` step of an array quantifier.
public struct ArrayExpressionSatisfies: Sendable {
    let quantifier: PlanExpression.Quantifier
    let variable: any VariableExpressionProtocol
    let array: any ExpressionProtocol

    /// The condition each element is tested with, written with the variable.
    public func satisfies(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        guard case .variable(let name, let path) = variable.plan, path.isEmpty else {
            return QueryExpression(
                .function(
                    FunctionCatalog.invalid,
                    [.literal(.string("the variable of \(quantifier.rawValue) must be a plain name"))]))
        }
        return QueryExpression(.quantified(quantifier, variable: name, array: array.plan, satisfies: expression.plan))
    }
}
