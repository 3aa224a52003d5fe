/// Function calls for queries: aggregates, math, strings and dates, named as in SQL++.
///
/// Functions propagate MISSING and NULL: a MISSING argument gives MISSING, a NULL one NULL.
public enum Function {
    private static func call(_ name: String, _ arguments: any ExpressionProtocol...) -> any ExpressionProtocol {
        QueryExpression(.function(name, arguments.map(\.plan)))
    }

    // MARK: Aggregates

    /// The average of the non-NULL values in each group.
    public static func avg(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("AVG", expression) }
    /// The number of valued (neither NULL nor MISSING) values; `count(Expression.all())` counts rows.
    public static func count(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("COUNT", expression)
    }
    /// The smallest value in each group.
    public static func min(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("MIN", expression) }
    /// The largest value in each group.
    public static func max(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("MAX", expression) }
    /// The sum of the values in each group.
    public static func sum(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("SUM", expression) }

    // MARK: Math

    /// The absolute value.
    public static func abs(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("ABS", expression) }
    /// The arc cosine, in radians.
    public static func acos(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("ACOS", expression) }
    /// The arc sine, in radians.
    public static func asin(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("ASIN", expression) }
    /// The arc tangent, in radians.
    public static func atan(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("ATAN", expression) }
    /// The angle of the point (x, y), in radians.
    public static func atan2(y: any ExpressionProtocol, x: any ExpressionProtocol) -> any ExpressionProtocol {
        call("ATAN2", y, x)
    }
    /// The smallest integer not less than the value.
    public static func ceil(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("CEIL", expression) }
    /// The cosine of an angle in radians.
    public static func cos(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("COS", expression) }
    /// Radians to degrees.
    public static func degrees(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("DEGREES", expression)
    }
    /// Euler's number.
    public static func e() -> any ExpressionProtocol { call("E") }
    /// e raised to the value.
    public static func exp(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("EXP", expression) }
    /// The largest integer not greater than the value.
    public static func floor(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("FLOOR", expression)
    }
    /// The natural logarithm.
    public static func ln(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("LN", expression) }
    /// The base-10 logarithm.
    public static func log(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("LOG", expression) }
    /// Pi.
    public static func pi() -> any ExpressionProtocol { call("PI") }
    /// `base` raised to `exponent`.
    public static func power(base: any ExpressionProtocol, exponent: any ExpressionProtocol) -> any ExpressionProtocol {
        call("POWER", base, exponent)
    }
    /// Degrees to radians.
    public static func radians(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("RADIANS", expression)
    }
    /// The value rounded to an integer (halves away from zero).
    public static func round(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("ROUND", expression)
    }
    /// The value rounded to `digits` decimal places.
    public static func round(_ expression: any ExpressionProtocol, digits: any ExpressionProtocol)
        -> any ExpressionProtocol
    {
        call("ROUND", expression, digits)
    }
    /// -1, 0 or 1.
    public static func sign(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("SIGN", expression) }
    /// The sine of an angle in radians.
    public static func sin(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("SIN", expression) }
    /// The square root.
    public static func sqrt(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("SQRT", expression) }
    /// The tangent of an angle in radians.
    public static func tan(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("TAN", expression) }
    /// The value truncated to an integer.
    public static func trunc(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("TRUNC", expression)
    }
    /// The value truncated to `digits` decimal places.
    public static func trunc(_ expression: any ExpressionProtocol, digits: any ExpressionProtocol)
        -> any ExpressionProtocol
    {
        call("TRUNC", expression, digits)
    }

    // MARK: Strings

    /// Whether the string contains `substring` (case-sensitive).
    public static func contains(_ expression: any ExpressionProtocol, substring: any ExpressionProtocol)
        -> any ExpressionProtocol
    {
        call("CONTAINS", expression, substring)
    }
    /// The number of characters.
    public static func length(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("LENGTH", expression)
    }
    /// The string in lower case (Unicode).
    public static func lower(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("LOWER", expression)
    }
    /// The string without leading whitespace.
    public static func ltrim(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("LTRIM", expression)
    }
    /// The string without trailing whitespace.
    public static func rtrim(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("RTRIM", expression)
    }
    /// The string without leading and trailing whitespace.
    public static func trim(_ expression: any ExpressionProtocol) -> any ExpressionProtocol { call("TRIM", expression) }
    /// The string in upper case (Unicode).
    public static func upper(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("UPPER", expression)
    }

    // MARK: Dates

    /// Milliseconds since the epoch of an ISO-8601 date string; NULL when it is not one.
    public static func stringToMillis(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("STR_TO_MILLIS", expression)
    }
    /// An ISO-8601 date string converted to UTC (`2026-01-02T03:04:05Z`).
    public static func stringToUTC(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("STR_TO_UTC", expression)
    }
    /// Milliseconds since the epoch as an ISO-8601 string in the local time zone.
    public static func millisToString(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("MILLIS_TO_STR", expression)
    }
    /// Milliseconds since the epoch as an ISO-8601 string in UTC.
    public static func millisToUTC(_ expression: any ExpressionProtocol) -> any ExpressionProtocol {
        call("MILLIS_TO_UTC", expression)
    }
}
