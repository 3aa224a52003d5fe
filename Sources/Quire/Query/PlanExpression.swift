/// One node of a query plan's expressions: what the builder DSL and the SQL++ parser both
/// produce, and what the compiler turns into SQLite SQL.
indirect enum PlanExpression: Sendable, Hashable {
    /// A property of a source's document; an empty path is the whole document.
    case property(PropertyPath, source: String?)
    /// `*`: every property of a source (in SELECT) or every row (in `count(*)`).
    case star(source: String?)
    /// A document's metadata.
    case meta(MetaProperty, source: String?)
    /// A constant.
    case literal(JSONValue)
    /// The `MISSING` constant.
    case missing
    /// A named parameter, bound at execution.
    case parameter(String)
    /// The variable of an `ANY`/`EVERY` expression, or a path inside it.
    case variable(String, path: PropertyPath)
    /// `NOT e` or `-e`.
    case unary(UnaryOperator, PlanExpression)
    /// An infix operation.
    case binary(BinaryOperator, PlanExpression, PlanExpression)
    /// `IS [NOT] NULL`, `IS [NOT] MISSING`, `IS [NOT] VALUED`.
    case test(PlanExpression, TypeTest)
    /// `e [NOT] BETWEEN low AND high`.
    case between(PlanExpression, low: PlanExpression, high: PlanExpression, negated: Bool)
    /// `e [NOT] IN (a, b, ...)`.
    case inList(PlanExpression, [PlanExpression], negated: Bool)
    /// `e [NOT] IN array`, where the array is one expression (a property or a parameter).
    case inArray(PlanExpression, PlanExpression, negated: Bool)
    /// `e COLLATE ...`.
    case collate(PlanExpression, Collation)
    /// A function call; the name is the canonical upper-case SQL++ name.
    case function(String, [PlanExpression])
    /// `ANY | EVERY | ANY AND EVERY variable IN array SATISFIES condition END`.
    case quantified(Quantifier, variable: String, array: PlanExpression, satisfies: PlanExpression)
    /// `MATCH(index, query)`: full-text search with the named index.
    case match(index: String, source: String?, query: PlanExpression)
    /// `RANK(index)`: the relevance of the full-text match, higher is better.
    case rank(index: String, source: String?)

    /// Prefix operators.
    enum UnaryOperator: String, Sendable, Hashable {
        case not = "NOT"
        case negate = "-"
    }

    /// Infix operators, with their SQL spelling.
    enum BinaryOperator: String, Sendable, Hashable {
        case add = "+"
        case subtract = "-"
        case multiply = "*"
        case divide = "/"
        case modulo = "%"
        case concat = "||"
        case equal = "="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case like = "LIKE"
        case notLike = "NOT LIKE"
        case regex = "REGEXP"
        case `is` = "IS"
        case isNot = "IS NOT"
        case and = "AND"
        case or = "OR"

        var isArithmetic: Bool { [.add, .subtract, .multiply, .divide, .modulo].contains(self) }
    }

    /// The tests that tell MISSING, NULL and values apart.
    enum TypeTest: String, Sendable, Hashable {
        case isNull = "IS NULL"
        case isNotNull = "IS NOT NULL"
        case isMissing = "IS MISSING"
        case isNotMissing = "IS NOT MISSING"
        case isValued = "IS VALUED"
        case isNotValued = "IS NOT VALUED"
    }

    /// The three array quantifiers.
    enum Quantifier: String, Sendable, Hashable {
        case any = "ANY"
        case every = "EVERY"
        case anyAndEvery = "ANY AND EVERY"
    }

    /// The direct children of this node.
    var children: [PlanExpression] {
        switch self {
        case .property, .star, .meta, .literal, .missing, .parameter, .variable, .rank: return []
        case .unary(_, let operand): return [operand]
        case .binary(_, let left, let right): return [left, right]
        case .test(let operand, _): return [operand]
        case .between(let operand, let low, let high, _): return [operand, low, high]
        case .inList(let operand, let list, _): return [operand] + list
        case .inArray(let operand, let array, _): return [operand, array]
        case .collate(let operand, _): return [operand]
        case .function(_, let arguments): return arguments
        case .quantified(_, _, let array, let condition): return [array, condition]
        case .match(_, _, let query): return [query]
        }
    }

    /// Whether `predicate` holds for this node or any node below it.
    func contains(where predicate: (PlanExpression) -> Bool) -> Bool {
        if predicate(self) { return true }
        return children.contains { $0.contains(where: predicate) }
    }

    /// This node with `transform` applied bottom-up to every node; `transform` returns nil to
    /// keep a node as it is.
    func rewritten(_ transform: (PlanExpression) throws -> PlanExpression?) rethrows -> PlanExpression {
        let node: PlanExpression
        switch self {
        case .property, .star, .meta, .literal, .missing, .parameter, .variable, .rank:
            node = self
        case .unary(let op, let operand):
            node = .unary(op, try operand.rewritten(transform))
        case .binary(let op, let left, let right):
            node = .binary(op, try left.rewritten(transform), try right.rewritten(transform))
        case .test(let operand, let test):
            node = .test(try operand.rewritten(transform), test)
        case .between(let operand, let low, let high, let negated):
            node = .between(
                try operand.rewritten(transform), low: try low.rewritten(transform),
                high: try high.rewritten(transform),
                negated: negated)
        case .inList(let operand, let list, let negated):
            node = .inList(
                try operand.rewritten(transform), try list.map { try $0.rewritten(transform) }, negated: negated)
        case .inArray(let operand, let array, let negated):
            node = .inArray(try operand.rewritten(transform), try array.rewritten(transform), negated: negated)
        case .collate(let operand, let collation):
            node = .collate(try operand.rewritten(transform), collation)
        case .function(let name, let arguments):
            node = .function(name, try arguments.map { try $0.rewritten(transform) })
        case .quantified(let quantifier, let variable, let array, let condition):
            node = .quantified(
                quantifier, variable: variable, array: try array.rewritten(transform),
                satisfies: try condition.rewritten(transform))
        case .match(let index, let source, let query):
            node = .match(index: index, source: source, query: try query.rewritten(transform))
        }
        return try transform(node) ?? node
    }

    /// The terms of a chain of ANDs (the node itself when it is not an AND).
    var conjuncts: [PlanExpression] {
        if case .binary(.and, let left, let right) = self { return left.conjuncts + right.conjuncts }
        return [self]
    }
}

/// The metadata a query can read.
enum MetaProperty: String, Sendable, Hashable, CaseIterable {
    case id
    case revisionID
    case sequence
    case isDeleted = "deleted"
    case expiration

    /// The result column name Couchbase Lite gives it.
    var columnName: String { rawValue }
}
