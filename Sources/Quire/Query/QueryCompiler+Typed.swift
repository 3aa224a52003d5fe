/// Calls of ``TypedFunctions`` (and `||`, CASE and literals holding expressions, which are
/// compiled as such calls): each argument goes to `quire_call` as JSON text, so the function
/// sees MISSING, null, booleans and containers as they are, and the call's JSON text answer
/// gives the expression's value (`json_extract(answer, '$')`) and type (`json_type(answer)`).
extension QueryCompiler {
    /// The typed function an expression calls, with its arguments; nil for other expressions.
    func typedCall(_ expression: PlanExpression) -> (name: String, arguments: [PlanExpression])? {
        switch expression {
        case .function("ARRAY_COUNT", let arguments) where arguments.count == 1:
            // LiteCore compiles ARRAY_COUNT of a property to fl_count (QueryParser,
            // writeNestedPropertyOpIfAny), of anything else to array_count().
            if case .property = arguments[0] { return (TypedFunctions.propertyCount, arguments) }
            return ("ARRAY_COUNT", arguments)
        case .function(let name, let arguments) where TypedFunctions.specs[name] != nil:
            return (name, arguments)
        case .binary(.concat, let left, let right):
            return (TypedFunctions.concat, [left, right])
        default:
            return nil
        }
    }

    /// SQL giving the JSON text of the expression's value, NULL when it is MISSING.
    func jsonText(_ expression: PlanExpression) throws -> String {
        if let call = typedCall(expression) {
            return try typedJSON(call.name, call.arguments)
        }
        switch expression {
        case .literal(let constant):
            if case .double(let number) = constant, !number.isFinite { return "'null'" }
            return QueryCompiler.quoted(try constant.jsonString())
        case .missing:
            return "NULL"
        case .property, .variable, .function(FunctionCatalog.nestedValue, _):
            if bareVariable(expression) == nil, let location = try location(expression) {
                // SQLite's `->` gives the JSON text at a path, NULL where there is nothing.
                return "(\(location.jsonRoot) -> (\(location.path)))"
            }
            return "quire_json(\(try value(expression)), \(try type(expression)))"
        default:
            return "quire_json(\(try value(expression)), \(try type(expression)))"
        }
    }

    /// The call's JSON text answer.
    func typedJSON(_ name: String, _ arguments: [PlanExpression]) throws -> String {
        guard let spec = TypedFunctions.specs[name] else {
            throw QuireError(.invalidQuery, "unknown function \(name)()")
        }
        guard spec.arity.contains(arguments.count) else {
            let expected =
                spec.arity.upperBound == Int.max
                ? "at least \(spec.arity.lowerBound)"
                : spec.arity.count == 1
                    ? "\(spec.arity.lowerBound)" : "\(spec.arity.lowerBound) to \(spec.arity.upperBound)"
            throw QuireError(
                .invalidQuery,
                "\(name)() takes \(expected) argument\(spec.arity.upperBound == 1 ? "" : "s"), not \(arguments.count)")
        }
        if spec.isAggregate {
            try checkQueryOnly("\(name)()")
            // LiteCore's array_agg skips MISSING and keeps null.
            let element = try jsonText(arguments[0])
            return "json_group_array(json(\(element))) FILTER (WHERE \(element) IS NOT NULL)"
        }
        if spec.isLocal {
            try checkQueryOnly("\(name)() (it depends on the time zone)")
        }
        let parts = [QueryCompiler.quoted(name)] + (try arguments.map { try jsonText($0) })
        return "\(spec.isLocal ? "quire_call_local" : "quire_call")(\(parts.joined(separator: ", ")))"
    }

    /// Whether the typed call can be MISSING: aggregates never are, `||` only through an
    /// operand; the rest can (MISSINGIF makes MISSING of anything).
    func typedCallCanBeMissing(_ name: String, _ arguments: [PlanExpression]) -> Bool {
        if TypedFunctions.specs[name]?.isAggregate ?? false { return false }
        if name == TypedFunctions.concat { return arguments.contains(where: canBeMissing) }
        return true
    }
}
