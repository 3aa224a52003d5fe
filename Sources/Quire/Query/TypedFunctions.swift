import Foundation

/// The SQL++ functions whose answer depends on the JSON type of their arguments (MISSING,
/// null, booleans, arrays and objects as well as numbers and strings), evaluated in Swift
/// over whole JSON values.
///
/// The compiler passes each argument as JSON text (SQL NULL for MISSING) to the SQL function
/// `quire_call(name, argument, ...)` (``SQLFunctions``), which calls ``evaluate(_:_:regex:)``
/// and returns the result as JSON text, or SQL NULL for MISSING. Each function follows
/// LiteCore's implementation of the same name (LiteCore/Query/SQLiteN1QLFunctions.cc): as a
/// rule MISSING in gives MISSING out, null in gives null, and an argument of the wrong type
/// gives null.
enum TypedFunctions {
    /// How a function is called.
    struct Spec: Sendable {
        let arity: ClosedRange<Int>
        /// Reads the device's time zone, so it may not appear in an index.
        var isLocal = false
        /// An aggregate over the rows of a group (`ARRAY_AGG`), compiled by the compiler.
        var isAggregate = false
    }

    /// `CASE` with an operand: `CASE x WHEN a THEN b ... [ELSE e] END`, arguments
    /// `x, a, b, ..., e` (an odd count with the ELSE, even without).
    static let simpleCase = "__CASE_SIMPLE"
    /// `CASE WHEN c THEN b ... [ELSE e] END`, arguments `c, b, ..., e`.
    static let searchedCase = "__CASE"
    /// An array literal holding expressions: `[a, b, ...]`.
    static let arrayLiteral = "__ARRAY"
    /// An object literal holding expressions: `{"k": v, ...}`, arguments `"k", v, ...`.
    static let objectLiteral = "__OBJECT"
    /// `a || b`, and `CONCAT(a, b, ...)`.
    static let concat = "||"
    /// A bare `meta()`: the metadata as an object, arguments as for ``objectLiteral``.
    static let metaObject = "__META"
    /// `ARRAY_COUNT` of a property, which LiteCore compiles to its `fl_count`: the non-null
    /// items of an array, the keys of an object, MISSING for anything else.
    static let propertyCount = "__PROPERTY_COUNT"
    /// The most elements an array literal may have (LiteCore's `array_of` takes 0 to 127
    /// arguments; QueryTest "Query Function Argument Limit").
    static let arrayLiteralLimit = 127

    static let specs: [String: Spec] = [
        concat: Spec(arity: 2...Int.max),
        metaObject: Spec(arity: 0...Int.max),
        simpleCase: Spec(arity: 2...Int.max),
        searchedCase: Spec(arity: 1...Int.max),
        arrayLiteral: Spec(arity: 0...arrayLiteralLimit),
        propertyCount: Spec(arity: 1...1),
        objectLiteral: Spec(arity: 0...Int.max),
        // Aggregates.
        "ARRAY_AGG": Spec(arity: 1...1, isAggregate: true),
        // Arrays.
        "ARRAY_AVG": Spec(arity: 1...1),
        "ARRAY_COUNT": Spec(arity: 1...1),
        "ARRAY_IFNULL": Spec(arity: 1...1),
        "ARRAY_MAX": Spec(arity: 1...1),
        "ARRAY_MIN": Spec(arity: 1...1),
        "ARRAY_SUM": Spec(arity: 1...1),
        // Conditions.
        "IFMISSING": Spec(arity: 2...Int.max),
        "IFMISSINGORNULL": Spec(arity: 2...Int.max),
        "IFNULL": Spec(arity: 2...Int.max),
        "MISSINGIF": Spec(arity: 2...2),
        "NULLIF": Spec(arity: 2...2),
        // Math.
        "DIV": Spec(arity: 2...2),
        "IDIV": Spec(arity: 2...2),
        "ROUND": Spec(arity: 1...2),
        "ROUND_EVEN": Spec(arity: 1...2),
        // Strings.
        "LENGTH": Spec(arity: 1...1),
        "LOWER": Spec(arity: 1...1),
        "UPPER": Spec(arity: 1...1),
        "REGEXP_POSITION": Spec(arity: 2...2),
        "REGEXP_REPLACE": Spec(arity: 3...4),
        // Types.
        "ISARRAY": Spec(arity: 1...1),
        "ISATOM": Spec(arity: 1...1),
        "ISBOOLEAN": Spec(arity: 1...1),
        "ISNUMBER": Spec(arity: 1...1),
        "ISOBJECT": Spec(arity: 1...1),
        "ISSTRING": Spec(arity: 1...1),
        "TYPE": Spec(arity: 1...1),
        "TOARRAY": Spec(arity: 1...1),
        "TOATOM": Spec(arity: 1...1),
        "TOBOOLEAN": Spec(arity: 1...1),
        "TONUMBER": Spec(arity: 1...1),
        "TOOBJECT": Spec(arity: 1...1),
        "TOSTRING": Spec(arity: 1...1),
        // Dates.
        "DATE_ADD_MILLIS": Spec(arity: 3...3),
        "DATE_ADD_STR": Spec(arity: 3...4),
        "DATE_DIFF_MILLIS": Spec(arity: 3...3),
        "DATE_DIFF_STR": Spec(arity: 3...3),
        "MILLIS_TO_STR": Spec(arity: 1...2, isLocal: true),
        "MILLIS_TO_TZ": Spec(arity: 2...3),
        "MILLIS_TO_UTC": Spec(arity: 1...2),
        "STR_TO_MILLIS": Spec(arity: 1...1),
        "STR_TO_TZ": Spec(arity: 2...3),
        "STR_TO_UTC": Spec(arity: 1...2),
    ]

    /// Other spellings LiteCore accepts for the same functions.
    static let synonyms: [String: String] = [
        "IS_ARRAY": "ISARRAY", "IS_ATOM": "ISATOM", "IS_BOOLEAN": "ISBOOLEAN", "IS_NUMBER": "ISNUMBER",
        "IS_OBJECT": "ISOBJECT", "IS_STRING": "ISSTRING", "TYPENAME": "TYPE", "TO_ARRAY": "TOARRAY",
        "TO_ATOM": "TOATOM", "TO_BOOLEAN": "TOBOOLEAN", "TO_NUMBER": "TONUMBER", "TO_OBJECT": "TOOBJECT",
        "TO_STRING": "TOSTRING", "CONCAT": concat,
    ]

    /// The names a SQL++ query may call (the internal ones excluded).
    static var callableNames: Set<String> {
        Set(specs.keys.filter { !$0.hasPrefix("__") && $0 != concat }).union(synonyms.keys)
    }

    /// Evaluates `name` over its arguments (nil is MISSING); nil is MISSING.
    static func evaluate(
        _ name: String, _ arguments: [JSONValue?], regex: (String) throws -> NSRegularExpression
    ) throws -> JSONValue? {
        // The compiler checks the arity; this keeps a hand-written call from reading past the end.
        guard let spec = specs[name], spec.arity.contains(arguments.count) else { return .null }
        switch name {
        case concat: return try concatenate(arguments)
        case simpleCase, searchedCase: return caseValue(name == simpleCase, arguments)
        // LiteCore's array_of() leaves MISSING elements out.
        case arrayLiteral: return .array(arguments.compactMap { $0 })
        case objectLiteral, metaObject:
            var members: [String: JSONValue] = [:]
            for pair in stride(from: 0, to: arguments.count - 1, by: 2) {
                guard case .string(let key)? = arguments[pair], let value = arguments[pair + 1] else { continue }
                members[key] = value
            }
            return .object(members)
        case "IFMISSING": return arguments.first { $0 != nil } ?? nil
        case "IFMISSINGORNULL": return arguments.first { $0 != nil && $0 != .null } ?? .null
        case "IFNULL": return arguments.first { $0 != .null } ?? .null
        case "MISSINGIF", "NULLIF":
            if let passed = passMissingOrNull(arguments) { return passed }
            return isEqual(arguments[0]!, arguments[1]!) ? (name == "NULLIF" ? .null : nil) : arguments[0]
        case "TOARRAY":
            switch arguments[0] {
            case nil, .null?, .array?: return arguments[0]
            case let value?: return .array([value])
            }
        case "TOOBJECT":
            switch arguments[0] {
            case nil, .null?, .object?: return arguments[0]
            case .some: return .object([:])
            }
        case "TONUMBER": return toNumber(arguments[0])
        // The array functions read their argument as LiteCore's do (SQLiteN1QLFunctions.cc,
        // aggregateArrayOperation): the answer is written after the walk over the array, so
        // MISSING or a value that is not an array counts and sums to 0.
        case propertyCount:
            switch arguments[0] {
            case .array(let items)?: return .int(Int64(items.filter { $0 != .null }.count))
            case .object(let members)?: return .int(Int64(members.count))
            default: return nil
            }
        case "ARRAY_COUNT":
            guard case .array(let items)? = arguments[0] else { return .int(0) }
            return .int(Int64(items.filter { $0 != .null }.count))
        case "ARRAY_AVG", "ARRAY_SUM", "ARRAY_MAX", "ARRAY_MIN":
            guard case .array(let items)? = arguments[0] else {
                return name.hasSuffix("AVG") || name.hasSuffix("SUM") ? .double(0) : .null
            }
            return arrayNumbers(name, items)
        case "ARRAY_IFNULL":
            guard case .array(let items)? = arguments[0] else { return .null }
            return items.first { $0 != .null } ?? .null
        case "TOSTRING": return toStringValue(arguments[0])
        case "TOBOOLEAN": return toBoolean(arguments[0])
        case "MILLIS_TO_STR", "MILLIS_TO_UTC", "MILLIS_TO_TZ", "STR_TO_MILLIS", "STR_TO_UTC", "STR_TO_TZ",
            "DATE_ADD_MILLIS", "DATE_ADD_STR", "DATE_DIFF_MILLIS", "DATE_DIFF_STR":
            return QueryDates.evaluate(name, arguments)
        default:
            break
        }
        // The rest pass MISSING and null through (LiteCore's passMissingOrNull).
        if let passed = passMissingOrNull(arguments) { return passed }
        let values = arguments.map { $0! }
        switch name {
        case "ARRAY_AGG": return nil  // compiled as an aggregate, never called
        case "DIV":
            guard let numerator = number(values[0]), let denominator = number(values[1]) else { return .null }
            let quotient = numerator / denominator
            return quotient.isFinite ? .double(quotient) : .null
        case "IDIV":
            guard let numerator = number(values[0]).flatMap(integer),
                let denominator = number(values[1]).flatMap(integer),
                denominator != 0
            else { return .null }
            let (quotient, overflow) = numerator.dividedReportingOverflow(by: denominator)
            return overflow ? .null : .int(quotient)
        case "ROUND", "ROUND_EVEN":
            guard var result = number(values[0]) else { return .null }
            let rule: FloatingPointRoundingRule = name == "ROUND" ? .toNearestOrAwayFromZero : .toNearestOrEven
            if values.count == 2 {
                guard let places = number(values[1]) else { return .null }
                let scale = pow(10, places.rounded(.towardZero))
                result = (result * scale).rounded(rule) / scale
            } else {
                result = result.rounded(rule)
            }
            return result.isFinite ? .double(result) : .null
        case "LENGTH":
            guard case .string(let text) = values[0] else { return .null }
            return .int(Int64(text.unicodeScalars.count))
        case "LOWER", "UPPER":
            guard case .string(let text) = values[0] else { return .null }
            return .string(name == "LOWER" ? text.lowercased() : text.uppercased())
        case "REGEXP_POSITION":
            guard case .string(let text) = values[0], case .string(let pattern) = values[1] else { return .null }
            let range = NSRange(text.startIndex..., in: text)
            guard let match = try regex(pattern).firstMatch(in: text, range: range),
                let start = Range(match.range, in: text)?.lowerBound
            else { return .int(-1) }
            return .int(Int64(text[..<start].utf8.count))
        case "REGEXP_REPLACE":
            guard case .string(let text) = values[0], case .string(let pattern) = values[1],
                case .string(let replacement) = values[2]
            else { return .null }
            let limit = values.count == 4 ? number(values[3]).flatMap(integer) ?? 0 : -1
            return .string(try replace(text, regex(pattern), replacement, limit: limit))
        case "ISARRAY", "ISATOM", "ISBOOLEAN", "ISNUMBER", "ISOBJECT", "ISSTRING":
            let type = typeName(values[0])
            switch name {
            case "ISATOM": return .bool(["boolean", "number", "string"].contains(type))
            default: return .bool(type == name.dropFirst(2).lowercased())
            }
        case "TYPE": return .string(typeName(values[0]))
        case "TOATOM":
            switch values[0] {
            case .array(let items): return items.count == 1 ? items[0] : .null
            case .object(let members): return members.count == 1 ? members.values.first : .null
            default: return values[0]
            }
        default:
            return .null
        }
    }

    // MARK: Helpers

    /// MISSING when an argument is MISSING, null when one is null, nil otherwise.
    private static func passMissingOrNull(_ arguments: [JSONValue?]) -> JSONValue?? {
        if arguments.contains(where: { $0 == nil }) { return .some(nil) }
        if arguments.contains(where: { $0 == .null }) { return .some(.null) }
        return nil
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let number): return Double(number)
        case .double(let number): return number
        default: return nil
        }
    }

    /// A double truncated to an integer, nil when out of range.
    private static func integer(_ value: Double) -> Int64? {
        guard value.isFinite, value > -9.3e18, value < 9.2e18 else { return nil }
        return Int64(value.rounded(.towardZero))
    }

    /// Equal as LiteCore's MISSINGIF and NULLIF compare: numbers by value, the rest by kind
    /// and content.
    static func isEqual(_ left: JSONValue, _ right: JSONValue) -> Bool {
        if let lhs = number(left) {
            guard let rhs = number(right) else { return false }
            if case .int(let a) = left, case .int(let b) = right { return a == b }
            return lhs == rhs
        }
        return left == right
    }

    /// The names LiteCore's TYPE() gives.
    private static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// A double as `||` and TOSTRING() write it: fleece's WriteDouble, the shortest text that
    /// reads back as the same double, keeping `.0` (`1.0`, `-0.0`, `1e+20`), as Swift does.
    static func text(of number: Double) -> String {
        "\(number)"
    }

    /// `||` (LiteCore's concat()): MISSING when a part is MISSING; numbers, booleans, null and
    /// containers are written as their JSON text.
    private static func concatenate(_ arguments: [JSONValue?]) throws -> JSONValue? {
        var result = ""
        for argument in arguments {
            guard let argument else { return nil }
            switch argument {
            case .string(let text): result += text
            case .int(let number): result += String(number)
            case .double(let number): result += text(of: number)
            case .bool(let flag): result += flag ? "true" : "false"
            case .null: result += "null"
            case .array, .object: result += try argument.jsonString()
            }
        }
        return .string(result)
    }

    /// A CASE expression: the first WHEN that matches (equals the operand, or is true) gives
    /// its THEN; else the ELSE, or null without one (LiteCore writes `ELSE fl_null()`).
    private static func caseValue(_ hasOperand: Bool, _ arguments: [JSONValue?]) -> JSONValue? {
        var index = hasOperand ? 1 : 0
        let operand = hasOperand ? arguments[0] : nil
        while index + 1 < arguments.count {
            let when = arguments[index]
            let matched: Bool
            if hasOperand {
                if let operand, let when, operand != .null, when != .null {
                    matched = isEqual(operand, when)
                } else {
                    matched = false
                }
            } else {
                matched = isTrue(when)
            }
            if matched { return arguments[index + 1] }
            index += 2
        }
        return index < arguments.count ? arguments[index] : .null
    }

    /// Truth as SQLite's CASE WHEN tests it: a non-zero number (true is 1).
    private static func isTrue(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let flag)?: return flag
        case .int(let number)?: return number != 0
        case .double(let number)?: return number != 0
        default: return false
        }
    }

    private static func toNumber(_ value: JSONValue?) -> JSONValue? {
        switch value {
        case nil: return nil
        case .int?, .double?: return value
        case .bool(let flag)?: return .int(flag ? 1 : 0)
        case .string(let text)?:
            return parseNumber(text)
        default: return .null
        }
    }

    /// TONUMBER of text, as LiteCore's tonumber(): fleece's ParseInteger (an integer between
    /// white space), else fleece's ParseDouble, `strtod` reading the longest leading number and
    /// 0 when there is none (`'abc'` and `''` are 0, `'12abc'` 12, `'2.5x'` 2.5). NaN is null,
    /// as in LiteCore; an infinity, which JSON cannot hold, is null too.
    static func parseNumber(_ text: String) -> JSONValue {
        // C's isspace: space, tab, newline, vertical tab, form feed, carriage return.
        func isSpace(_ byte: UInt8) -> Bool { byte == 32 || (9...13).contains(byte) }
        let bytes = Array(text.utf8)
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        let digits =
            start < end && (bytes[start] == UInt8(ascii: "+") || bytes[start] == UInt8(ascii: "-")) ? start + 1 : start
        if digits < end, bytes[digits..<end].allSatisfy({ (48...57).contains($0) }),
            let integer = Int64(String(decoding: bytes[start..<end], as: UTF8.self))
        {
            return .int(integer)
        }
        let number = text.withCString { strtod($0, nil) }
        return number.isFinite ? .double(number) : .null
    }

    private static func toStringValue(_ value: JSONValue?) -> JSONValue? {
        switch value {
        case nil: return nil
        case .string?: return value
        case .int(let number)?: return .string(String(number))
        case .double(let number)?: return .string(text(of: number))
        case .bool(let flag)?: return .string(flag ? "true" : "false")
        default: return .null
        }
    }

    /// LiteCore's toboolean(): false, 0, NaN and empty strings, arrays and objects are false.
    private static func toBoolean(_ value: JSONValue?) -> JSONValue? {
        switch value {
        case nil: return nil
        case .null?: return .null
        case .bool?: return value
        case .int(let number)?: return .bool(number != 0)
        case .double(let number)?: return .bool(number != 0 && !number.isNaN)
        case .string(let text)?: return .bool(!text.isEmpty)
        case .array(let items)?: return .bool(!items.isEmpty)
        case .object(let members)?: return .bool(!members.isEmpty)
        }
    }

    /// ARRAY_SUM, ARRAY_AVG, ARRAY_MIN, ARRAY_MAX over an array's items, each read as a number
    /// as LiteCore reads them (`asDouble`: true is 1, anything else not a number is 0).
    private static func arrayNumbers(_ name: String, _ items: [JSONValue]) -> JSONValue? {
        let numbers = items.map { item -> Double in
            switch item {
            case .int(let number): return Double(number)
            case .double(let number): return number
            case .bool(let flag): return flag ? 1 : 0
            default: return 0
            }
        }
        switch name {
        case "ARRAY_SUM": return .double(numbers.reduce(0, +))
        case "ARRAY_AVG": return .double(numbers.isEmpty ? 0 : numbers.reduce(0, +) / Double(numbers.count))
        case "ARRAY_MAX": return numbers.max().map { .double($0) } ?? .null
        default: return numbers.min().map { .double($0) } ?? .null
        }
    }

    /// The first `limit` matches (all when negative) replaced by `template` (`$1` refers to a
    /// group).
    private static func replace(_ text: String, _ regex: NSRegularExpression, _ template: String, limit: Int64)
        -> String
    {
        let whole = text as NSString
        var matches = regex.matches(in: text, range: NSRange(location: 0, length: whole.length))
        if limit >= 0 { matches = Array(matches.prefix(Int(min(limit, Int64(Int.max))))) }
        var result = ""
        var position = 0
        for match in matches {
            result += whole.substring(with: NSRange(location: position, length: match.range.location - position))
            result += regex.replacementString(for: match, in: text, offset: 0, template: template)
            position = match.range.location + match.range.length
        }
        return result + whole.substring(from: position)
    }
}
