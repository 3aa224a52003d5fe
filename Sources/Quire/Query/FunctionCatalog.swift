/// The functions queries can call, by canonical SQL++ name, and the SQLite SQL each becomes.
///
/// Functions that need more than their arguments' SQL (array functions, `COUNT(*)`,
/// `MATCH`, `RANK`) are compiled by ``QueryCompiler`` itself, and those whose answer depends
/// on their arguments' JSON types are ``TypedFunctions``; everything here is a template over
/// the arguments' SQL.
enum FunctionCatalog {
    /// What kind of value a function returns, which decides how its result column is read.
    enum Kind: Sendable {
        case number, string, bool, scalar
    }

    struct Spec: Sendable {
        let arity: ClosedRange<Int>
        let kind: Kind
        let isAggregate: Bool
        /// Same arguments, same result: only such functions may appear in indexes.
        let isDeterministic: Bool
        /// Whether the SQL's NULL is MISSING (rather than null when no argument is MISSING).
        var nullIsMissing = false
        let sql: @Sendable ([String]) -> String

        init(
            arity: ClosedRange<Int>, kind: Kind, isAggregate: Bool, isDeterministic: Bool, nullIsMissing: Bool = false,
            sql: @escaping @Sendable ([String]) -> String
        ) {
            self.arity = arity
            self.kind = kind
            self.isAggregate = isAggregate
            self.isDeterministic = isDeterministic
            self.nullIsMissing = nullIsMissing
            self.sql = sql
        }
    }

    /// The name of a placeholder node carrying an error found while building an expression
    /// (such as an invalid property path); compiling it throws that error.
    static let invalid = "__INVALID"

    /// A path into the value of an expression that is not a property (`{'x': 17}.x`,
    /// LiteCore's `_.` operator): arguments the expression and a one-step SQLite JSON path
    /// (`$.x`, `$[0]`) as a string literal; longer paths nest.
    static let nestedValue = "__NESTED"

    /// Whitespace the trim functions remove: LiteCore's UTF16IsSpace, the POSIX spaces of
    /// ISO 30112 (U+0009...U+000D, U+0020, U+1680, U+180E, U+2000...U+2006, U+2008...U+200A,
    /// U+2028, U+2029, U+205F, U+3000).
    private static let whitespace =
        "char(32, 9, 10, 11, 12, 13, 5760, 6158, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8200, 8201, 8202, 8232, 8233, 8287, 12288)"

    static func spec(_ name: String) -> Spec? { specs[name] }

    /// The trim functions give back an argument that is not a string as it is (LiteCore's
    /// trim() in SQLiteN1QLFunctions.cc: `sqlite3_result_value` of anything not text).
    static let trims: Set<String> = ["TRIM", "LTRIM", "RTRIM"]

    private static func simple(_ sqlName: String, _ kind: Kind = .number, arity: ClosedRange<Int> = 1...1) -> Spec {
        Spec(arity: arity, kind: kind, isAggregate: false, isDeterministic: true) {
            "\(sqlName)(\($0.joined(separator: ", ")))"
        }
    }

    private static func aggregate(_ sqlName: String, _ kind: Kind) -> Spec {
        // SQLite's NULL over no rows or no values is MISSING in LiteCore; COUNT is never NULL.
        Spec(arity: 1...1, kind: kind, isAggregate: true, isDeterministic: false, nullIsMissing: sqlName != "count") {
            "\(sqlName)(\($0[0]))"
        }
    }

    private static let specs: [String: Spec] = [
        // Aggregates.
        "AVG": aggregate("avg", .number),
        "COUNT": aggregate("count", .number),
        "MIN": aggregate("min", .scalar),
        "MAX": aggregate("max", .scalar),
        "SUM": aggregate("sum", .number),
        // Math.
        "ABS": simple("abs"),
        "ACOS": simple("acos"),
        "ASIN": simple("asin"),
        "ATAN": simple("atan"),
        "ATAN2": simple("atan2", arity: 2...2),
        "CEIL": simple("ceil"),
        "COS": simple("cos"),
        "DEGREES": simple("degrees"),
        "E": Spec(arity: 0...0, kind: .number, isAggregate: false, isDeterministic: true) { _ in "exp(1)" },
        "EXP": simple("exp"),
        "FLOOR": simple("floor"),
        "LN": simple("ln"),
        // SQLite's log10 is log(x)/log(10), 2.9999999999999996 for 1000; LiteCore calls C's log10.
        "LOG": simple("quire_log10"),
        "PI": simple("pi", arity: 0...0),
        // LiteCore's fl_power gives pow()'s NaN to SQLite, which makes it NULL: MISSING.
        "POWER": Spec(arity: 2...2, kind: .number, isAggregate: false, isDeterministic: true, nullIsMissing: true) {
            "power(\($0[0]), \($0[1]))"
        },
        "RADIANS": simple("radians"),
        "SIGN": simple("sign"),
        "SIN": simple("sin"),
        "SQRT": simple("sqrt"),
        "TAN": simple("tan"),
        "TRUNC": Spec(arity: 1...2, kind: .number, isAggregate: false, isDeterministic: true) { arguments in
            guard arguments.count == 2 else { return "trunc(\(arguments[0]))" }
            return "(trunc((\(arguments[0])) * power(10, \(arguments[1]))) / power(10, \(arguments[1])))"
        },
        // Strings.
        "CONTAINS": Spec(arity: 2...2, kind: .bool, isAggregate: false, isDeterministic: true) {
            "(instr(\($0[0]), \($0[1])) > 0)"
        },
        "LTRIM": Spec(arity: 1...1, kind: .string, isAggregate: false, isDeterministic: true) {
            "ltrim(\($0[0]), \(whitespace))"
        },
        "RTRIM": Spec(arity: 1...1, kind: .string, isAggregate: false, isDeterministic: true) {
            "rtrim(\($0[0]), \(whitespace))"
        },
        "TRIM": Spec(arity: 1...1, kind: .string, isAggregate: false, isDeterministic: true) {
            "trim(\($0[0]), \(whitespace))"
        },
        // A search anywhere in the text, as LiteCore's regexp_like() (std::regex_search).
        "REGEXP_LIKE": Spec(arity: 2...2, kind: .bool, isAggregate: false, isDeterministic: true) {
            "regexp(\($0[1]), \($0[0]))"
        },
        "REGEXP_CONTAINS": Spec(arity: 2...2, kind: .bool, isAggregate: false, isDeterministic: true) {
            "regexp(\($0[1]), \($0[0]))"
        },
    ]

    /// Functions the compiler handles itself, with their arity.
    static let special: [String: ClosedRange<Int>] = [
        "ARRAY_CONTAINS": 2...2,
        "ARRAY_LENGTH": 1...1,
        "MATCH": 2...2,
        "RANK": 1...1,
    ]

    /// Every name a SQL++ query may call.
    static var knownNames: Set<String> { Set(specs.keys).union(special.keys).union(TypedFunctions.callableNames) }
}
