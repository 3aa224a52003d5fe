import Foundation

/// Makes the leaves of query expressions: properties, constants and parameters.
///
/// Properties are paths into the document (`"contact.address.city"`, `"phones[0]"`); a `\`
/// escapes a `.` or `[` that is part of a key.
public enum Expression {
    /// The property at `property` in the document of the (only, or first) data source.
    /// An invalid path makes the query fail with invalidQuery when it runs.
    public static func property(_ property: String) -> any PropertyExpressionProtocol {
        do {
            return QueryExpression(.property(try PropertyPath.parse(property), source: nil))
        } catch {
            return QueryExpression(.function(FunctionCatalog.invalid, [.literal(.string("\(error)"))]))
        }
    }

    /// Every property: in ``SelectResult`` the whole document, in `Function.count` every row.
    public static func all() -> any PropertyExpressionProtocol {
        QueryExpression(.star(source: nil))
    }

    /// A constant: `nil`/`NSNull` (NULL), `Bool`, integers, floating-point numbers, `String`,
    /// `Date` (as ISO-8601 text), arrays and dictionaries of these, or another
    /// ``ExpressionProtocol``. Anything else makes the query fail with invalidQuery.
    public static func value(_ value: Any?) -> any ExpressionProtocol {
        if let expression = value as? any ExpressionProtocol { return expression }
        if let json = QueryValue.json(value) { return QueryExpression(.literal(json)) }
        return QueryExpression(
            .function(
                FunctionCatalog.invalid,
                [
                    .literal(
                        .string(
                            "a value of type \(value.map { "\(type(of: $0))" } ?? "nil") cannot be a query constant"))
                ]))
    }

    /// A string constant; nil is NULL.
    public static func string(_ value: String?) -> any ExpressionProtocol {
        QueryExpression(.literal(value.map { .string($0) } ?? .null))
    }

    /// A number constant; nil is NULL.
    public static func number(_ value: NSNumber?) -> any ExpressionProtocol {
        guard let value else { return QueryExpression(.literal(.null)) }
        return QueryExpression(.literal(JSONValue(any: value) ?? .null))
    }

    /// An integer constant.
    public static func int(_ value: Int) -> any ExpressionProtocol { QueryExpression(.literal(.int(Int64(value)))) }

    /// A 64-bit integer constant.
    public static func int64(_ value: Int64) -> any ExpressionProtocol { QueryExpression(.literal(.int(value))) }

    /// A floating-point constant.
    public static func float(_ value: Float) -> any ExpressionProtocol {
        QueryExpression(.literal(JSONValue(any: value) ?? .null))
    }

    /// A double constant.
    public static func double(_ value: Double) -> any ExpressionProtocol {
        QueryExpression(.literal(value.isFinite ? .double(value) : .null))
    }

    /// A boolean constant.
    public static func boolean(_ value: Bool) -> any ExpressionProtocol { QueryExpression(.literal(.bool(value))) }

    /// A date constant, as the ISO-8601 text documents store; nil is NULL.
    public static func date(_ value: Date?) -> any ExpressionProtocol {
        QueryExpression(.literal(value.map { .string(ISO8601.string(from: $0)) } ?? .null))
    }

    /// A dictionary constant; nil is NULL.
    public static func dictionary(_ value: [String: Any]?) -> any ExpressionProtocol {
        guard let value else { return QueryExpression(.literal(.null)) }
        return Expression.value(value)
    }

    /// An array constant; nil is NULL.
    public static func array(_ value: [Any]?) -> any ExpressionProtocol {
        guard let value else { return QueryExpression(.literal(.null)) }
        return Expression.value(value)
    }

    /// The MISSING constant: `x.is(Expression.missing)` is true when `x` is absent, and a
    /// result column holding it is left out of the row.
    public static var missing: any ExpressionProtocol { QueryExpression(.missing) }

    /// The query parameter `name`, set through ``Query/parameters``; MISSING while unset.
    public static func parameter(_ name: String) -> any ExpressionProtocol {
        QueryExpression(.parameter(name))
    }

    /// `-expression`.
    public static func negated(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        QueryExpression(.unary(.negate, expression.plan))
    }

    /// `NOT expression`.
    public static func not(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        QueryExpression(.unary(.not, expression.plan))
    }
}
