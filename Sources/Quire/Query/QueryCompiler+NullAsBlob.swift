/// Aggregates, GROUP BY and arithmetic over a JSON null, as Couchbase Lite runs them.
///
/// LiteCore hands SQLite a JSON null as a zero-length blob (`setResultFleeceNull` in
/// SQLiteFleeceUtil.cc), arrays and objects as Fleece blobs, and MISSING as SQL NULL, then lets
/// SQLite's own `count`, `sum`, `avg`, `min`, `max`, GROUP BY and arithmetic operators read
/// them. Quire's values carry a null as SQL NULL (see QueryCompiler+Logic), so where SQLite's
/// own rules decide, the operand is first written as LiteCore gives it:
/// - `COUNT(x)` counts a null, `SUM` and `AVG` read it as 0, and `MIN`/`MAX` rank it after
///   every number and string, before any array or object;
/// - `GROUP BY x` keeps the group of the nulls apart from the group of the MISSING values;
/// - `null + 1` is 1, `-null` is 0, and `1 / null` is a division by zero, so MISSING.
extension QueryCompiler {
    /// The expression's value as LiteCore gives it to SQLite: a JSON null as an empty blob,
    /// an array or object as a blob (of its JSON text), anything else as itself.
    func blobNullOperand(_ expression: PlanExpression) throws -> String {
        let value = try self.value(expression)
        guard canBeJSONNull(expression) || staticKind(expression) == .json else { return value }
        let type = try self.type(expression)
        return
            "CASE \(type) WHEN 'null' THEN x'' WHEN 'array' THEN CAST(\(value) AS BLOB) WHEN 'object' THEN CAST(\(value) AS BLOB) ELSE \(value) END"
    }

    /// An operand of an arithmetic operator: a JSON null reads as 0, as SQLite reads the empty
    /// blob; MISSING stays SQL NULL.
    func arithmeticOperand(_ expression: PlanExpression) throws -> String {
        let value = try self.value(expression)
        guard canBeJSONNull(expression) else { return value }
        return "CASE WHEN \(value) IS NOT NULL THEN \(value) WHEN \(try type(expression)) IS NULL THEN NULL ELSE 0 END"
    }
}

extension QueryCompiler {
    /// The type of `MIN(x)` or `MAX(x)` (`sqlName` `min` or `max`): a boolean when a boolean
    /// wins, as in Couchbase Lite.
    ///
    /// LiteCore hands SQLite a boolean as the integer 0 or 1 tagged with a subtype
    /// (`kFleeceIntBoolean`, SQLiteFleeceUtil.cc), SQLite's min/max keep the winning argument
    /// with its subtype, and `fl_result` (SQLiteFleeceFunctions.cc) turns a tagged winner back
    /// into `true` or `false`. So booleans rank as 0 and 1 among the numbers, and the answer
    /// is a boolean exactly when a boolean wins. Where a boolean and a number tie (`true` and
    /// `1`), SQLite keeps the one it met first, an order Quire's table does not share with
    /// LiteCore's; Quire answers the number then.
    func extremumType(_ sqlName: String, _ argument: PlanExpression) throws -> String {
        let operand = try blobNullOperand(argument)
        let isBoolean = "\(try type(argument)) IN ('true', 'false')"
        let winner = "\(sqlName)(\(operand))"
        let bestBoolean = "\(sqlName)(CASE WHEN \(isBoolean) THEN \(operand) END)"
        let bestOther = "\(sqlName)(CASE WHEN \(isBoolean) THEN NULL ELSE \(operand) END)"
        return """
            CASE WHEN \(winner) IS NULL THEN NULL \
            WHEN \(bestBoolean) = \(winner) AND \(bestOther) IS NOT \(winner) \
            THEN (CASE WHEN \(winner) THEN 'true' ELSE 'false' END) ELSE 'value' END
            """
    }
}
