/// An expression of the query builder: a property, a constant, a parameter, a function call
/// or an operation on other expressions. Operations return new expressions, so they chain:
///
/// ```swift
/// Expression.property("age").greaterThan(Expression.int(18)).and(Expression.property("active").equalTo(Expression.boolean(true)))
/// ```
///
/// Only Quire's own expressions (from ``Expression``, ``Meta``, ``Function`` and the other
/// builders) carry a query plan; a type of an app's that conforms stands for `MISSING`.
public protocol ExpressionProtocol: Sendable, CustomStringConvertible {}

/// A property expression, which can name the data source it belongs to.
public protocol PropertyExpressionProtocol: ExpressionProtocol {
    /// The same property of the data source with alias `alias`.
    func from(_ alias: String) -> any ExpressionProtocol
}

/// A metadata expression, which can name the data source it belongs to.
public protocol MetaExpressionProtocol: ExpressionProtocol {
    /// The same metadata of the data source with alias `alias`.
    func from(_ alias: String) -> any ExpressionProtocol
}

/// The variable of an array quantifier (``ArrayExpression``).
public protocol VariableExpressionProtocol: ExpressionProtocol {}

extension ExpressionProtocol {
    var plan: PlanExpression { (self as? QueryExpression)?.node.plan ?? .missing }

    /// The expression in SQL++ syntax.
    public var description: String { SQLPPPrinter.text(plan) }

    private func binary(_ op: PlanExpression.BinaryOperator, _ other: any ExpressionProtocol) -> any ExpressionProtocol
    {
        QueryExpression(.binary(op, plan, other.plan))
    }

    // MARK: Arithmetic

    /// `self * expression`.
    public func multiply(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        binary(.multiply, expression)
    }
    /// `self / expression`: integer division when both are integers, as in SQLite.
    public func divide(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { binary(.divide, expression) }
    /// `self % expression`.
    public func modulo(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { binary(.modulo, expression) }
    /// `self + expression`.
    public func add(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { binary(.add, expression) }
    /// `self - expression`.
    public func subtract(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        binary(.subtract, expression)
    }

    // MARK: Comparison

    /// `self < expression`.
    public func lessThan(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { binary(.less, expression) }
    /// `self <= expression`.
    public func lessThanOrEqualTo(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        binary(.lessOrEqual, expression)
    }
    /// `self > expression`.
    public func greaterThan(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        binary(.greater, expression)
    }
    /// `self >= expression`.
    public func greaterThanOrEqualTo(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        binary(.greaterOrEqual, expression)
    }
    /// `self = expression`.
    public func equalTo(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { binary(.equal, expression) }
    /// `self != expression`.
    public func notEqualTo(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        binary(.notEqual, expression)
    }
    /// `self LIKE pattern`: `%` matches any run of characters, `_` one character; ASCII
    /// letters match regardless of case unless a collation says otherwise.
    public func like(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { binary(.like, expression) }
    /// Whether the whole string matches the regular expression `expression`.
    public func regex(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { binary(.regex, expression) }
    /// `self IS expression`: equality where NULL equals NULL and MISSING equals MISSING.
    /// `is(Expression.value(nil))` is SQL++'s `IS NULL`: true for NULL, MISSING for MISSING.
    public func `is`(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        if case .literal(.null) = expression.plan { return QueryExpression(.test(plan, .isNull)) }
        return binary(.is, expression)
    }
    /// `self IS NOT expression`; `isNot(Expression.value(nil))` is SQL++'s `IS NOT NULL`.
    public func isNot(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        if case .literal(.null) = expression.plan { return QueryExpression(.test(plan, .isNotNull)) }
        return binary(.isNot, expression)
    }
    /// `self BETWEEN expression1 AND expression2`.
    public func between(_ expression1: any ExpressionProtocol, and expression2: any ExpressionProtocol)
        -> any ExpressionProtocol
    {
        QueryExpression(.between(plan, low: expression1.plan, high: expression2.plan, negated: false))
    }
    /// `self IN (e1, e2, ...)`.
    public func `in`(_ expressions: [any ExpressionProtocol]) -> any ExpressionProtocol {
        QueryExpression(.inList(plan, expressions.map(\.plan), negated: false))
    }

    // MARK: Null and missing

    /// True when the value is neither NULL nor MISSING.
    public func isValued() -> any ExpressionProtocol { QueryExpression(.test(plan, .isValued)) }
    /// True when the value is NULL or MISSING.
    public func isNotValued() -> any ExpressionProtocol { QueryExpression(.test(plan, .isNotValued)) }
    /// True when the value is NULL or MISSING (the older name of ``isNotValued()``).
    public func isNullOrMissing() -> any ExpressionProtocol { isNotValued() }
    /// True when the value is neither NULL nor MISSING (the older name of ``isValued()``).
    public func notNullOrMissing() -> any ExpressionProtocol { isValued() }

    // MARK: Logic

    /// `self AND expression`.
    public func and(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { binary(.and, expression) }
    /// `self OR expression`.
    public func or(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { binary(.or, expression) }

    // MARK: Collation

    /// The same expression compared with `collation` wherever it is compared or sorted.
    public func collate(_ collation: Collation) -> any ExpressionProtocol {
        QueryExpression(.collate(plan, collation))
    }
}
