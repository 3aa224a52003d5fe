/// AND, OR, NOT and ORDER BY as Couchbase Lite runs them.
///
/// LiteCore gives a JSON null to SQLite as an empty blob and MISSING as SQL NULL; Quire reads
/// both as SQL NULL and tells them apart by their JSON type. Two consequences are written out
/// here so that Quire answers as Couchbase Lite does:
/// - SQLite's logic reads an empty blob as 0, so in AND, OR and NOT a JSON null counts as
///   FALSE while MISSING keeps SQL's three-valued logic (the logical operators table of the
///   SQL++ for Mobile docs: `null AND true` is FALSE, `NOT null` is TRUE, `MISSING AND true`
///   is MISSING);
/// - SQLite sorts NULL first, then numbers, text and blobs, so ORDER BY puts MISSING first and
///   a JSON null after every string, before arrays and objects (Fleece blobs).
extension QueryCompiler {
    /// SQL for a condition whose result is only tested for truth (a WHERE or HAVING term, a
    /// join's ON): FALSE and NULL are alike there, so the operands of AND and OR stay plain
    /// comparisons that SQLite can answer from an index.
    func condition(_ expression: PlanExpression) throws -> String {
        switch expression {
        case .binary(.and, let left, let right):
            return "(\(try condition(left)) AND \(try condition(right)))"
        case .binary(.or, let left, let right):
            return "(\(try condition(left)) OR \(try condition(right)))"
        default:
            return try value(expression)
        }
    }

    /// The value of AND, OR or NOT: 1, 0, or SQL NULL for MISSING, never a JSON null.
    func logicalValue(_ expression: PlanExpression) throws -> String? {
        switch expression {
        case .unary(.not, let operand):
            return "(NOT \(try logicalOperand(operand)))"
        case .binary(.and, let left, let right):
            return "(\(try logicalOperand(left)) AND \(try logicalOperand(right)))"
        case .binary(.or, let left, let right):
            return "(\(try logicalOperand(left)) OR \(try logicalOperand(right)))"
        default:
            return nil
        }
    }

    /// The JSON type of AND, OR or NOT: `'true'`, `'false'`, or NULL for MISSING.
    func logicalType(_ expression: PlanExpression) throws -> String? {
        guard let value = try logicalValue(expression) else { return nil }
        return "CASE WHEN \(value) IS NULL THEN NULL WHEN \(value) THEN 'true' ELSE 'false' END"
    }

    /// An operand of AND, OR or NOT: a JSON null reads as 0, MISSING stays SQL NULL.
    private func logicalOperand(_ expression: PlanExpression) throws -> String {
        let value = try self.value(expression)
        guard canBeJSONNull(expression) else { return value }
        return "CASE WHEN \(value) IS NOT NULL THEN \(value) WHEN \(try type(expression)) IS NULL THEN NULL ELSE 0 END"
    }

    /// Whether the expression's SQL value may be NULL standing for a JSON null (rather than
    /// only for MISSING).
    func canBeJSONNull(_ expression: PlanExpression) -> Bool {
        switch expression {
        case .literal(let constant): return constant == .null
        case .missing, .meta, .test, .quantified, .match, .rank, .inArray, .star: return false
        case .unary(.not, _), .binary(.and, _, _), .binary(.or, _, _), .binary(.is, _, _), .binary(.isNot, _, _):
            return false
        case .collate(let operand, _): return canBeJSONNull(operand)
        default: return true
        }
    }

    /// `a = null` and `a != null`: LiteCore compares the empty blob it reads a JSON null as, so
    /// they tell a null from any other value, and are MISSING when `a` is (LiteCore QueryTest
    /// "Query missing and null"). Nil when neither side is the literal null.
    func nullComparison(_ op: PlanExpression.BinaryOperator, _ left: PlanExpression, _ right: PlanExpression) throws
        -> String?
    {
        guard op == .equal || op == .notEqual else { return nil }
        let other: PlanExpression
        if case .literal(.null) = right {
            other = left
        } else if case .literal(.null) = left {
            other = right
        } else {
            return nil
        }
        return try testValue(other, op == .equal ? .isNull : .isNotNull)
    }

    /// The SQL sort keys of an ORDER BY term, in Couchbase Lite's order: MISSING, numbers and
    /// booleans, strings, null, then arrays and objects. `valued` holds the SQL values that
    /// the WHERE clause compares at its top level: they hold a number or a string in every
    /// row, so the value alone orders them and a value index on it gives the order.
    func orderingKeys(_ expression: PlanExpression, descending: Bool, valued: Set<String>) throws -> [String] {
        let value = try self.value(expression)
        let direction = descending ? " DESC" : ""
        if case .meta = expression { return [value + direction] }
        if valued.contains(value) || !canBeJSONNull(expression) && staticKind(expression) != .json {
            return [value + direction]
        }
        let rank = "CASE \(try type(expression)) WHEN 'null' THEN 1 WHEN 'array' THEN 2 WHEN 'object' THEN 2 ELSE 0 END"
        return [rank + direction, value + direction]
    }

    /// The SQL values of the properties that a top-level comparison of the WHERE clause
    /// (`=`, `<`, `<=`, `>`, `>=`, BETWEEN) holds to a number or string constant or parameter.
    func valuedByComparison(_ conjuncts: [PlanExpression]) throws -> Set<String> {
        func isScalarConstant(_ expression: PlanExpression) -> Bool {
            switch expression {
            case .literal(.int), .literal(.double), .literal(.string), .parameter: return true
            default: return false
            }
        }
        var valued: Set<String> = []
        for conjunct in conjuncts {
            switch conjunct {
            case .binary(let op, let left, let right)
            where [.equal, .less, .lessOrEqual, .greater, .greaterOrEqual].contains(op):
                if isScalarConstant(right), case .property = left { valued.insert(try value(left)) }
                if isScalarConstant(left), case .property = right { valued.insert(try value(right)) }
            case .between(let operand, let low, let high, false) where isScalarConstant(low) && isScalarConstant(high):
                if case .property = operand { valued.insert(try value(operand)) }
            default:
                continue
            }
        }
        return valued
    }
}
