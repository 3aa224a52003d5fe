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
        let sql: @Sendable ([String]) -> String
    }

    /// The name of a placeholder node carrying an error found while building an expression
    /// (such as an invalid property path); compiling it throws that error.
    static let invalid = "__INVALID"

    /// Whitespace the trim functions remove (space, tab, newlines, vertical tab, form feed).
    private static let whitespace = "char(32, 9, 10, 11, 12, 13)"

    static func spec(_ name: String) -> Spec? { specs[name] }

    private static func simple(_ sqlName: String, _ kind: Kind = .number, arity: ClosedRange<Int> = 1...1) -> Spec {
        Spec(arity: arity, kind: kind, isAggregate: false, isDeterministic: true) {
            "\(sqlName)(\($0.joined(separator: ", ")))"
        }
    }

    private static func aggregate(_ sqlName: String, _ kind: Kind) -> Spec {
        Spec(arity: 1...1, kind: kind, isAggregate: true, isDeterministic: false) { "\(sqlName)(\($0[0]))" }
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
        "LOG": simple("log10"),
        "PI": simple("pi", arity: 0...0),
        "POWER": simple("power", arity: 2...2),
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
