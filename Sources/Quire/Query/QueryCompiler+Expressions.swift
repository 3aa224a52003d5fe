/// Expressions: each node compiles to a value (SQL whose result is the value, with JSON
/// null and MISSING both SQL NULL, booleans 0 and 1, containers JSON text) and, on demand,
/// a type (SQL giving `json_type`'s names, NULL for MISSING).
extension QueryCompiler {
    /// A place in JSON: `json_extract(root, path)` reads it, or `quire_extract(root, path)`
    /// when the root is a stored body (a document's or an array index element's).
    struct Location {
        let root: String
        let path: String
        /// Whether `root` is a `body` column: its paths are read with `quire_extract` and
        /// `quire_type` (the same answers as SQLite's functions, found by scanning the text
        /// instead of parsing all of it; see `quire_path.c`), in queries and value index
        /// expressions alike, so the planner still matches them.
        var readsBody = false

        var valueFunction: String { readsBody ? "quire_extract" : "json_extract" }
        /// `root` as JSON text for SQLite's own functions (`json_each`, `->`): a stored body
        /// holds its identifier keys bare (`quire_body.h`), which `quire_body` quotes again.
        var jsonRoot: String { readsBody ? "quire_body(\(root))" : root }
        var typeFunction: String { readsBody ? "quire_type" : "json_type" }
    }

    /// What kind of value an expression has, when it is known without looking at the data.
    enum StaticKind {
        case json, number, string, bool, scalar
    }

    // MARK: Values

    func value(_ expression: PlanExpression) throws -> String {
        if let call = typedCall(expression) {
            return "json_extract(\(try typedJSON(call.name, call.arguments)), '$')"
        }
        switch expression {
        case .property, .variable, .function(FunctionCatalog.nestedValue, _):
            return try locationValue(expression)
        case .star:
            throw QuireError(.invalidQuery, "'*' may appear only as a result or in COUNT(*)")
        case .meta(let property, let alias):
            try checkQueryOnly("metadata", allowedInIndex: true)
            let source = try documentSource(named: alias)
            switch property {
            case .id: return column(source, "key")
            case .revisionID: return "quire_revid(\(column(source, "revid")))"
            case .sequence: return column(source, "sequence")
            case .isDeleted: return "(\(column(source, "flags")) & 1 != 0)"
            case .expiration: return column(source, "expiration")
            }
        case .literal(let constant):
            return try QueryCompiler.literal(constant)
        case .missing:
            return "NULL"
        case .parameter(let name):
            try checkQueryOnly("parameter $\(name)")
            return placeholder(.parameterValue(name))
        case .unary(.not, _), .binary(.and, _, _), .binary(.or, _, _):
            return try logicalValue(expression) ?? "NULL"
        case .unary(.negate, let operand):
            return "(- \(try arithmeticOperand(operand)))"
        case .binary(let op, let left, let right):
            return try binaryValue(op, left, right)
        case .test(let operand, let test):
            return try testValue(operand, test)
        case .between(let operand, let low, let high, let negated):
            return "(\(try value(operand)) \(negated ? "NOT " : "")BETWEEN \(try value(low)) AND \(try value(high)))"
        case .inList(let operand, let list, let negated):
            let items = try list.map { try value($0) }.joined(separator: ", ")
            return "(\(try value(operand)) \(negated ? "NOT " : "")IN (\(items)))"
        case .inArray(let operand, let array, let negated):
            return try containsValue(array: array, element: operand, negated: negated)
        case .collate(let operand, let collation):
            if case .function("CONTAINS", let arguments) = operand, arguments.count == 2 {
                // LiteCore's contains() takes the collation in force (c4QueryTest "C4Query
                // Contains": CONTAINS(first, 'jen') COLLATE (UNICODE NOCASE) finds Jen).
                let parts = try arguments.map { try value($0) }
                return "quire_contains(\(parts[0]), \(parts[1]), \(QueryCompiler.foldingFlags(collation)))"
            }
            if let comparison = QueryCompiler.collating(operand, collation) { return try value(comparison) }
            return "(\(try value(operand)) COLLATE \(collation.sqlName))"
        case .function(let name, let arguments):
            return try functionValue(name, arguments)
        case .quantified(let quantifier, let variable, let array, let condition):
            return try quantifiedValue(quantifier, variable: variable, array: array, condition: condition)
        case .match(let index, let alias, let query):
            try checkQueryOnly("MATCH")
            let join = try fullTextJoin(index: index, sourceAlias: alias, function: "MATCH")
            // An apostrophe separates words, as in the indexed text (`'woman'` finds woman, as
            // in couchbase-lite-ios QueryTest.testFTSMatch); FTS5 would refuse it as syntax.
            return "(\(join.sqlAlias).\(join.table) MATCH replace(\(try value(query)), '''', ' '))"
        case .rank(let index, let alias):
            try checkQueryOnly("RANK")
            let join = try fullTextJoin(index: index, sourceAlias: alias, function: "RANK")
            return "(- \(join.sqlAlias).rank)"
        }
    }

    private func binaryValue(_ op: PlanExpression.BinaryOperator, _ left: PlanExpression, _ right: PlanExpression)
        throws
        -> String
    {
        switch op {
        case .like, .notLike:
            let pattern = try value(right)
            let test: String
            // LIKE is case-sensitive, as LiteCore makes SQLite's (`PRAGMA case_sensitive_like`;
            // c4QueryTest "C4Query LIKE": '%j%' finds 1 name where '%J%' finds 12); a collation
            // on the left operand relaxes case or accents.
            if case .collate(let operand, let collation) = left {
                test = "quire_like(\(try value(operand)), \(pattern), \(QueryCompiler.foldingFlags(collation)))"
            } else {
                test = "quire_like(\(try value(left)), \(pattern), 0)"
            }
            return op == .like ? test : "(NOT \(test))"
        case .regex:
            // A search, not a whole match: LiteCore's regexp_like() calls std::regex_search.
            return "regexp(\(try value(right)), \(try value(left)))"
        case .is, .isNot:
            let test: String
            switch right {
            case .literal(.null): return try testValue(left, op == .is ? .isNull : .isNotNull)
            case .missing: return try testValue(left, op == .is ? .isMissing : .isNotMissing)
            default:
                let same = "\(try value(left)) IS \(try value(right))"
                if canBeMissing(left) || canBeMissing(right) {
                    test = "(\(same) AND (\(try type(left)) IS NULL) = (\(try type(right)) IS NULL))"
                } else {
                    test = "(\(same))"
                }
            }
            return op == .is ? test : "(NOT \(test))"
        default:
            if let test = try nullComparison(op, left, right) { return test }
            if op.isArithmetic {
                return "(\(try arithmeticOperand(left)) \(op.rawValue) \(try arithmeticOperand(right)))"
            }
            return "(\(try value(left)) \(op.rawValue) \(try value(right)))"
        }
    }

    func testValue(_ operand: PlanExpression, _ test: PlanExpression.TypeTest) throws -> String {
        let type = try self.type(operand)
        switch test {
        case .isNull: return "(\(type) = 'null')"
        case .isNotNull: return "(\(type) != 'null')"
        case .isMissing: return "(\(type) IS NULL)"
        case .isNotMissing: return "(\(type) IS NOT NULL)"
        case .isValued: return "(ifnull(\(type), 'null') != 'null')"
        case .isNotValued: return "(ifnull(\(type), 'null') = 'null')"
        }
    }

    // MARK: Locations (properties and variables)

    /// Where a property or variable lives, or nil for other expressions.
    func location(_ expression: PlanExpression) throws -> Location? {
        switch expression {
        case .property(let path, let alias):
            try path.validate()
            if alias == nil, let first = path.firstKey, let variable = variables[first] {
                return variableLocation(variable, path.droppingFirst)
            }
            var source = sources[0]
            var rest = path
            if let alias {
                source = try self.source(named: alias)
            } else if !isIndexMode, let first = path.firstKey, let named = sources.first(where: { $0.alias == first }) {
                source = named
                rest = path.droppingFirst
            } else if !isIndexMode, sources.count > 1 {
                // With a join, an unqualified property could belong to any source; LiteCore
                // refuses it rather than pick the first (N1QLParserTest, "custId, other.custId").
                throw QuireError(
                    .invalidQuery,
                    "property '\(path)' does not begin with a data source's alias (\(sources.map { "'\($0.alias)'" }.joined(separator: ", "))); in a join every property is qualified"
                )
            }
            return sourceLocation(source, rest)
        case .function(FunctionCatalog.nestedValue, let arguments):
            guard arguments.count == 2, case .literal(.string(let path)) = arguments[1] else { return nil }
            return Location(root: try jsonText(arguments[0]), path: QueryCompiler.quoted(path))
        case .variable(let name, let path):
            try path.validate()
            guard let variable = variables[name] else {
                throw QuireError(.invalidQuery, "the variable '\(name)' is used outside its ANY/EVERY expression")
            }
            return variableLocation(variable, path)
        default:
            return nil
        }
    }

    private func variableLocation(_ variable: VariableRef, _ path: PropertyPath) -> Location {
        let base = "\(variable.sqlAlias).fullkey"
        return Location(
            root: variable.root, path: path.isEmpty ? base : "\(base) || \(QueryCompiler.quoted(path.suffix))")
    }

    /// The variable an expression is, when it is one with no path (the builder writes it as
    /// a variable, SQL++ as a one-key property).
    func bareVariable(_ expression: PlanExpression) -> VariableRef? {
        switch expression {
        case .variable(let name, let path) where path.isEmpty:
            return variables[name]
        case .property(let path, nil) where path.components.count == 1:
            return path.firstKey.flatMap { variables[$0] }
        default:
            return nil
        }
    }

    private func locationValue(_ expression: PlanExpression) throws -> String {
        if let variable = bareVariable(expression) {
            return "\(variable.sqlAlias).value"
        }
        guard let location = try location(expression) else { return "NULL" }
        return "\(location.valueFunction)(\(location.root), \(location.path))"
    }

    /// `quire_result(root, path)` for a result column that is a path into a stored body: its
    /// value and type from one scan of the body, where the pair `quire_extract`, `quire_type`
    /// scans it twice (read back by ``CompiledQuery/Column/init(name:combinedIndex:)``); nil for
    /// any other expression.
    func combinedResult(_ expression: PlanExpression) throws -> String? {
        guard typedCall(expression) == nil, bareVariable(expression) == nil else { return nil }
        switch expression {
        case .property, .function(FunctionCatalog.nestedValue, _):
            guard let location = try location(expression), location.readsBody else { return nil }
            return "quire_result(\(location.root), \(location.path))"
        default:
            return nil
        }
    }

    // MARK: Types

    /// SQL giving the JSON type name of the expression's value, NULL when it is MISSING.
    func type(_ expression: PlanExpression) throws -> String {
        if let call = typedCall(expression) {
            return "json_type(\(try typedJSON(call.name, call.arguments)))"
        }
        switch expression {
        case .property, .variable, .function(FunctionCatalog.nestedValue, _):
            if let variable = bareVariable(expression) {
                return "\(variable.sqlAlias).type"
            }
            guard let location = try location(expression) else { return "NULL" }
            return "\(location.typeFunction)(\(location.root), \(location.path))"
        case .literal(let constant):
            return QueryCompiler.quoted(CompiledQuery.typeName(constant))
        case .missing:
            return "NULL"
        case .parameter(let name):
            try checkQueryOnly("parameter $\(name)")
            return placeholder(.parameterType(name))
        case .collate(let operand, let collation) where !QueryCompiler.isCollatedCall(operand):
            if let comparison = QueryCompiler.collating(operand, collation) { return try type(comparison) }
            return try type(operand)
        case .unary(.not, _), .binary(.and, _, _), .binary(.or, _, _):
            return try logicalType(expression) ?? "NULL"
        case .function(let name, let arguments) where FunctionCatalog.trims.contains(name) && arguments.count == 1:
            // A string trims to a string; anything else is given back as it is.
            return try type(arguments[0])
        case .meta(.isDeleted, _):
            let flag = try value(expression)
            return "CASE WHEN \(flag) IS NULL THEN NULL WHEN \(flag) THEN 'true' ELSE 'false' END"
        case .function(let name, let arguments) where (name == "MIN" || name == "MAX") && arguments.count == 1:
            return try extremumType(name == "MAX" ? "max" : "min", arguments[0])
        case .meta:
            let column = try value(expression)
            return "CASE WHEN \(column) IS NULL THEN NULL ELSE 'value' END"
        default:
            let value = try self.value(expression)
            var nullType = "'null'"
            if case .function(let name, _) = expression, FunctionCatalog.spec(name)?.nullIsMissing ?? false {
                // SUM, AVG, MIN and MAX are SQLite's, whose NULL (over no rows, or no values)
                // LiteCore reads as MISSING; so is POWER's NaN, which SQLite makes NULL.
                nullType = "NULL"
            } else if !isNeverMissing(expression) {
                var missingTerms = try expression.children.filter(canBeMissing).map { "\(try type($0)) IS NULL" }
                // `x / 0` is MISSING, as in Couchbase Lite (SQLite's NULL, which LiteCore reads
                // as MISSING).
                if case .binary(let op, _, let divisor) = expression, op == .divide || op == .modulo {
                    missingTerms.append("\(try arithmeticOperand(divisor)) = 0")
                }
                if !missingTerms.isEmpty {
                    nullType = "CASE WHEN \(missingTerms.joined(separator: " OR ")) THEN NULL ELSE 'null' END"
                }
            }
            if staticKind(expression) == .bool {
                return "CASE WHEN \(value) IS NULL THEN \(nullType) WHEN \(value) THEN 'true' ELSE 'false' END"
            }
            return "CASE WHEN \(value) IS NULL THEN \(nullType) ELSE 'value' END"
        }
    }

    /// Whether the expression's value may be MISSING.
    func canBeMissing(_ expression: PlanExpression) -> Bool {
        if let call = typedCall(expression) { return typedCallCanBeMissing(call.name, call.arguments) }
        switch expression {
        case .binary(.divide, _, _), .binary(.modulo, _, _): return true
        case .function(let name, _) where FunctionCatalog.spec(name)?.nullIsMissing ?? false: return true
        case .function("COUNT", _): return false
        case .literal, .star, .rank: return false
        case .missing, .parameter, .property, .variable, .function(FunctionCatalog.nestedValue, _): return true
        case .meta(_, let alias):
            let source = alias.flatMap { name in sources.first { $0.alias == name } } ?? sources.first
            return source?.isLeftJoined ?? false
        default:
            return !isNeverMissing(expression) && expression.children.contains(where: canBeMissing)
        }
    }

    /// Expressions that are true or false (or a number) even over MISSING operands.
    private func isNeverMissing(_ expression: PlanExpression) -> Bool {
        switch expression {
        case .test(_, .isNull), .test(_, .isNotNull): return false
        case .test, .quantified, .match, .rank, .inArray, .function("ARRAY_LENGTH", _): return true
        case .binary(.is, _, .literal(.null)), .binary(.isNot, _, .literal(.null)): return false
        case .binary(.is, _, _), .binary(.isNot, _, _): return true
        case .function(let name, _): return FunctionCatalog.spec(name)?.isAggregate ?? false
        default: return false
        }
    }

    /// The kind of value, when known statically.
    func staticKind(_ expression: PlanExpression) -> StaticKind {
        if typedCall(expression) != nil { return .json }
        switch expression {
        case .property, .variable, .parameter, .literal, .missing, .star, .function(FunctionCatalog.nestedValue, _):
            return .json
        case .meta(.isDeleted, _): return .bool
        case .meta(.id, _), .meta(.revisionID, _): return .string
        case .meta: return .number
        case .unary(.not, _): return .bool
        case .unary(.negate, _): return .number
        case .binary(let op, _, _):
            if op.isArithmetic { return .number }
            return op == .concat ? .string : .bool
        case .test, .between, .inList, .inArray, .quantified, .match: return .bool
        case .rank: return .number
        case .collate(let operand, _): return staticKind(operand)
        case .function(let name, let arguments) where FunctionCatalog.trims.contains(name) && arguments.count == 1:
            return staticKind(arguments[0]) == .string ? .string : .json
        case .function(let name, _):
            switch FunctionCatalog.spec(name)?.kind {
            case .bool?: return .bool
            case .string?: return .string
            case .number?: return .number
            case .scalar?, nil: return name == "ARRAY_CONTAINS" ? .bool : (name == "ARRAY_LENGTH" ? .number : .scalar)
            }
        }
    }

    /// `(a = b) COLLATE c` collates the comparison, not its boolean result: the collation moves
    /// onto the left operand of every comparison inside (through AND, OR and NOT), where SQLite
    /// applies it, as LiteCore applies a COLLATE to the comparisons it encloses. Nil when
    /// `operand` compares nothing, so the collation stays on the value.
    static func collating(_ operand: PlanExpression, _ collation: Collation) -> PlanExpression? {
        func collated(_ expression: PlanExpression) -> PlanExpression {
            if case .collate = expression { return expression }
            return .collate(expression, collation)
        }
        switch operand {
        case .function("CONTAINS", let arguments) where arguments.count == 2:
            return .collate(operand, collation)
        case .binary(.and, let left, let right), .binary(.or, let left, let right):
            guard case .binary(let op, _, _) = operand else { return nil }
            return .binary(op, collating(left, collation) ?? left, collating(right, collation) ?? right)
        case .binary(let op, let left, let right)
        where [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .like, .notLike, .is, .isNot]
            .contains(op):
            if case .is = op, case .literal(.null) = right { return nil }
            if case .isNot = op, case .literal(.null) = right { return nil }
            if case .missing = right, op == .is || op == .isNot { return nil }
            return .binary(op, collated(left), right)
        case .unary(.not, let inner):
            return collating(inner, collation).map { .unary(.not, $0) }
        case .between(let inner, let low, let high, let negated):
            return .between(collated(inner), low: low, high: high, negated: negated)
        case .inList(let inner, let list, let negated):
            return .inList(collated(inner), list, negated: negated)
        default:
            return nil
        }
    }

    /// Whether `operand` is a call that takes the collation itself (CONTAINS), so that
    /// `.collate(operand, c)` is that call, collated.
    static func isCollatedCall(_ operand: PlanExpression) -> Bool {
        if case .function("CONTAINS", let arguments) = operand, arguments.count == 2 { return true }
        return false
    }

    /// The folding flags of `quire_like` and `quire_contains`: 1 ignores case, 2 accents.
    static func foldingFlags(_ collation: Collation) -> Int {
        (collation.ignoresCase ? 1 : 0) | (collation.ignoresAccents ? 2 : 0)
    }

    // MARK: Helpers

    /// Throws when an index expression uses something only queries can.
    func checkQueryOnly(_ what: String, allowedInIndex: Bool = false) throws {
        if isIndexMode && !allowedInIndex {
            throw QuireError(.invalidQuery, "\(what) cannot be used in an index expression")
        }
    }

    /// A SQL literal for a constant: text quoted, booleans 1 and 0, containers as JSON text.
    static func literal(_ constant: JSONValue) throws -> String {
        switch constant {
        case .null: return "NULL"
        case .bool(let flag): return flag ? "1" : "0"
        case .int(let number): return number == Int64.min ? "(-9223372036854775807 - 1)" : "\(number)"
        case .double(let number):
            guard number.isFinite else { return "NULL" }
            let text = "\(number)"
            return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
        case .string(let text): return quoted(text)
        case .array, .object: return quoted(try constant.jsonString())
        }
    }

    /// `text` as a SQL string literal: every `'` byte doubled, in one pass over the UTF-8
    /// (a search through Foundation compares characters, and misses an apostrophe that a
    /// combining mark follows).
    static func quoted(_ text: String) -> String {
        let quote = UInt8(ascii: "'")
        var text = text
        return text.withUTF8 { source in
            var quotes = 0
            for byte in source where byte == quote { quotes += 1 }
            return String(unsafeUninitializedCapacity: source.count + quotes + 2) { output in
                var index = 0
                output[index] = quote
                index += 1
                for byte in source {
                    output[index] = byte
                    index += 1
                    if byte == quote {
                        output[index] = quote
                        index += 1
                    }
                }
                output[index] = quote
                return index + 1
            }
        }
    }
}
