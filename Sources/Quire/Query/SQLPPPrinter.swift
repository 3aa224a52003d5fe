/// Writes plans and expressions back as SQL++, for descriptions and error messages.
enum SQLPPPrinter {
    static func text(_ plan: QueryPlan) -> String {
        var text = "SELECT \(plan.distinct ? "DISTINCT " : "")"
        text += plan.columns.map { column in
            let expression: String
            if case .star(let source) = column.expression {
                expression = source.map { "\(identifier($0)).*" } ?? "*"
            } else {
                expression = self.text(column.expression)
            }
            return column.alias.map { "\(expression) AS \(identifier($0))" } ?? expression
        }.joined(separator: ", ")
        text += " FROM \(source(plan.from))"
        for (offset, join) in plan.joins.enumerated() {
            text += unnests(plan, afterJoins: offset)
            text += " \(join.kind.rawValue) \(source(join.source))"
            if let condition = join.condition { text += " ON \(self.text(condition))" }
        }
        text += unnests(plan, afterJoins: plan.joins.count)
        if let whereClause = plan.whereClause { text += " WHERE \(self.text(whereClause))" }
        if !plan.groupBy.isEmpty { text += " GROUP BY " + plan.groupBy.map { self.text($0) }.joined(separator: ", ") }
        if let having = plan.having { text += " HAVING \(self.text(having))" }
        if !plan.orderBy.isEmpty {
            text +=
                " ORDER BY "
                + plan.orderBy.map { self.text($0.expression) + ($0.descending ? " DESC" : "") }
                .joined(separator: ", ")
        }
        if let limit = plan.limit { text += " LIMIT \(self.text(limit))" }
        if let offset = plan.offset { text += " OFFSET \(self.text(offset))" }
        return text
    }

    private static func unnests(_ plan: QueryPlan, afterJoins count: Int) -> String {
        plan.unnests.filter { $0.afterJoins == count }.map {
            " UNNEST \(text($0.expression)) AS \(identifier($0.alias))"
        }
        .joined()
    }

    private static func source(_ source: QueryPlan.Source) -> String {
        let collection = source.collection
        return "\(identifier(collection.scope.name)).\(identifier(collection.name)) AS \(identifier(source.alias))"
    }

    static func identifier(_ name: String) -> String {
        PropertyPath([.key(name)]).description
    }

    static func text(_ expression: PlanExpression) -> String {
        switch expression {
        case .property(let path, let source):
            let prefix = source.map { identifier($0) + (path.isEmpty ? "" : ".") } ?? ""
            return prefix + path.description
        case .star(let source):
            return source.map { "\(identifier($0)).*" } ?? "*"
        case .meta(let property, let source):
            return "meta(\(source.map(identifier) ?? "")).\(property.rawValue)"
        case .literal(let value):
            if case .string(let string) = value { return "'" + string.replacingOccurrences(of: "'", with: "''") + "'" }
            return (try? value.jsonString()) ?? "NULL"
        case .missing:
            return "MISSING"
        case .parameter(let name):
            return "$\(name)"
        case .variable(let name, let path):
            return PropertyPath([.key(name)] + path.components).description
        case .unary(.not, let operand):
            return "NOT \(text(operand))"
        case .unary(.negate, let operand):
            return "-\(text(operand))"
        case .binary(.regex, let left, let right):
            return "REGEXP_LIKE(\(text(left)), \(text(right)))"
        case .binary(.is, let left, .missing):
            return "(\(text(left)) IS MISSING)"
        case .binary(.isNot, let left, .missing):
            return "(\(text(left)) IS NOT MISSING)"
        case .binary(let op, let left, let right):
            return "(\(text(left)) \(op.rawValue) \(text(right)))"
        case .test(let operand, let test):
            return "(\(text(operand)) \(test.rawValue))"
        case .between(let operand, let low, let high, let negated):
            return "(\(text(operand)) \(negated ? "NOT " : "")BETWEEN \(text(low)) AND \(text(high)))"
        case .inList(let operand, let list, let negated):
            return "(\(text(operand)) \(negated ? "NOT " : "")IN [\(list.map(text).joined(separator: ", "))])"
        case .inArray(let operand, let array, let negated):
            return "(\(text(operand)) \(negated ? "NOT " : "")IN \(text(array)))"
        case .collate(let operand, let collation):
            // COLLATE ends an expression (n1ql.leg, expr9): parenthesized, it can stand anywhere.
            return "(\(text(operand)) COLLATE \(collation))"
        case .function(FunctionCatalog.nestedValue, let arguments):
            guard arguments.count == 2, case .literal(.string(let path)) = arguments[1] else {
                return "\(FunctionCatalog.nestedValue)(\(arguments.map(text).joined(separator: ", ")))"
            }
            let step = path.dropFirst()  // `$`
            if step.hasPrefix(".\"") { return "(\(text(arguments[0]))).`\(step.dropFirst(2).dropLast())`" }
            return "(\(text(arguments[0])))\(step)"
        case .function(TypedFunctions.concat, let arguments):
            return "CONCAT(\(arguments.map(text).joined(separator: ", ")))"
        case .function(TypedFunctions.arrayLiteral, let arguments):
            return "[" + arguments.map(text).joined(separator: ", ") + "]"
        case .function(TypedFunctions.objectLiteral, let arguments):
            let members = stride(from: 0, to: arguments.count - 1, by: 2).map {
                "\(text(arguments[$0])): \(text(arguments[$0 + 1]))"
            }
            return "{" + members.joined(separator: ", ") + "}"
        case .function(TypedFunctions.metaObject, let arguments):
            if case .meta(_, let source)? = arguments.dropFirst().first {
                return "meta(\(source.map(identifier) ?? ""))"
            }
            return "meta()"
        case .function(TypedFunctions.simpleCase, let arguments), .function(TypedFunctions.searchedCase, let arguments):
            var parts = ["CASE"]
            var rest = arguments[...]
            if case .function(TypedFunctions.simpleCase, _) = expression, let operand = rest.popFirst() {
                parts.append(text(operand))
            }
            while rest.count >= 2 {
                parts.append("WHEN \(text(rest.removeFirst())) THEN \(text(rest.removeFirst()))")
            }
            if let otherwise = rest.first { parts.append("ELSE \(text(otherwise))") }
            return (parts + ["END"]).joined(separator: " ")
        case .function(let name, let arguments):
            return "\(name)(\(arguments.map(text).joined(separator: ", ")))"
        case .quantified(let quantifier, let variable, let array, let condition):
            return "\(quantifier.rawValue) \(identifier(variable)) IN \(text(array)) SATISFIES \(text(condition)) END"
        case .match(let index, let source, let query):
            return "MATCH(\(source.map { identifier($0) + "." } ?? "")\(identifier(index)), \(text(query)))"
        case .rank(let index, let source):
            return "RANK(\(source.map { identifier($0) + "." } ?? "")\(identifier(index)))"
        }
    }
}
