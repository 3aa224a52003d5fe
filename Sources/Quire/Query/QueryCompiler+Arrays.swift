/// Array expressions: quantifiers, `IN array`, and the array functions, all over SQLite's
/// `json_each` table-valued function.
extension QueryCompiler {
    /// The `json_each` call that iterates `array`, the JSON text its rows' `fullkey` points
    /// into, and the condition under which `array` is an array at all.
    private struct Iteration {
        let call: String
        let root: String
        let isArray: String
    }

    private func iteration(_ array: PlanExpression) throws -> Iteration {
        try checkQueryOnly("an array expression (it needs a subquery)")
        if let location = try location(array) {
            return Iteration(
                call: "json_each(\(location.jsonRoot), \(location.path))", root: location.jsonRoot,
                isArray: "\(location.typeFunction)(\(location.root), \(location.path)) = 'array'")
        }
        let isArray = "\(try type(array)) = 'array'"
        let root = "(CASE WHEN \(isArray) THEN \(try value(array)) ELSE '[]' END)"
        return Iteration(call: "json_each(\(root))", root: root, isArray: isArray)
    }

    /// `element [NOT] IN array` and `ARRAY_CONTAINS(array, element)`.
    func containsValue(array: PlanExpression, element: PlanExpression, negated: Bool) throws -> String {
        let each = try iteration(array)
        let alias = nextAlias("e")
        let test = "EXISTS (SELECT 1 FROM \(each.call) AS \(alias) WHERE \(alias).value = \(try value(element)))"
        return "(\(each.isArray) AND \(negated ? "NOT " : "")\(test))"
    }

    /// `ANY`, `EVERY` and `ANY AND EVERY`.
    func quantifiedValue(
        _ quantifier: PlanExpression.Quantifier, variable: String, array: PlanExpression, condition: PlanExpression
    ) throws -> String {
        let each = try iteration(array)
        let alias = nextAlias("v")
        let shadowed = variables[variable]
        variables[variable] = VariableRef(sqlAlias: alias, root: each.root)
        defer { variables[variable] = shadowed }
        let satisfied = try value(condition)
        let from = "SELECT 1 FROM \(each.call) AS \(alias)"
        let some = "EXISTS (\(from) WHERE \(satisfied))"
        let none = "NOT EXISTS (\(from) WHERE NOT ifnull(\(satisfied), 0))"
        switch quantifier {
        case .any: return "(\(each.isArray) AND \(some))"
        case .every: return "(\(each.isArray) AND \(none))"
        case .anyAndEvery: return "(\(each.isArray) AND EXISTS (\(from)) AND \(none))"
        }
    }

    /// `ARRAY_LENGTH(array)`: 0 for anything not an array, MISSING included (LiteCore's
    /// fl_array_length writes its count after aggregateArrayOperation gave up on the argument).
    func arrayLength(_ array: PlanExpression) throws -> String {
        if let location = try location(array) {
            return
                "CASE WHEN \(location.typeFunction)(\(location.root), \(location.path)) = 'array' THEN json_array_length(\(location.jsonRoot), \(location.path)) ELSE 0 END"
        }
        return "CASE WHEN \(try type(array)) = 'array' THEN json_array_length(\(try value(array))) ELSE 0 END"
    }

    /// `ARRAY_CONTAINS(array, value)`: MISSING when the array is MISSING, null when it is not
    /// an array (LiteCore's fl_array_contains).
    func arrayContains(_ array: PlanExpression, _ element: PlanExpression) throws -> String {
        let test = try containsValue(array: array, element: element, negated: false)
        return "CASE WHEN \(try type(array)) = 'array' THEN \(test) END"
    }

    /// Every other function, from the catalog.
    func functionValue(_ name: String, _ arguments: [PlanExpression]) throws -> String {
        if name == FunctionCatalog.invalid {
            if case .literal(.string(let message))? = arguments.first {
                throw QuireError(.invalidQuery, message)
            }
            throw QuireError(.invalidQuery, "invalid expression")
        }
        if let arity = FunctionCatalog.special[name] {
            guard arity.contains(arguments.count) else { throw arityError(name, arity, arguments.count) }
            switch name {
            case "ARRAY_CONTAINS": return try arrayContains(arguments[0], arguments[1])
            case "ARRAY_LENGTH": return try arrayLength(arguments[0])
            default: throw QuireError(.invalidQuery, "\(name) cannot be used here")
            }
        }
        guard let spec = FunctionCatalog.spec(name) else {
            throw QuireError(.invalidQuery, "unknown function \(name)()")
        }
        guard spec.arity.contains(arguments.count) else { throw arityError(name, spec.arity, arguments.count) }
        if spec.isAggregate || !spec.isDeterministic {
            try checkQueryOnly("\(name)()")
        }
        if name == "COUNT", case .star? = arguments.first {
            return "count(*)"
        }
        if FunctionCatalog.trims.contains(name), staticKind(arguments[0]) != .string {
            let value = try value(arguments[0])
            return "CASE WHEN \(try type(arguments[0])) = 'text' THEN \(spec.sql([value])) ELSE \(value) END"
        }
        if spec.isAggregate {
            return spec.sql(try arguments.map { try blobNullOperand($0) })
        }
        return spec.sql(try arguments.map { try value($0) })
    }

    private func arityError(_ name: String, _ arity: ClosedRange<Int>, _ count: Int) -> QuireError {
        let expected =
            arity.lowerBound == arity.upperBound ? "\(arity.lowerBound)" : "\(arity.lowerBound) to \(arity.upperBound)"
        return QuireError(
            .invalidQuery, "\(name)() takes \(expected) argument\(arity.upperBound == 1 ? "" : "s"), not \(count)")
    }
}
