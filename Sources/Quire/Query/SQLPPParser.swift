/// A recursive-descent parser for the SQL++ subset Quire runs: the shape of the queries the
/// builder makes, written as text.
///
/// ```
/// SELECT [DISTINCT] result, ... FROM [scope.]collection [[AS] alias]
///     [[INNER] JOIN | LEFT [OUTER] JOIN | CROSS JOIN source [ON condition]
///      | UNNEST alias.path [[AS] alias]] ...
///     [WHERE condition] [GROUP BY expression, ... [HAVING condition]]
///     [ORDER BY expression [ASC | DESC], ...]
///     [LIMIT expression [OFFSET expression] | OFFSET expression [LIMIT expression]]
/// ```
///
/// Expressions follow SQL++ precedence (OR < AND < NOT < comparisons < `||` < `+ -` <
/// `* / %` < unary minus < paths); see ``parsePrimary()`` for the leaves. Errors are
/// invalidQuery with the line, column and offset of the token at fault and what was expected.
///
/// Expressions nest at most ``maximumNesting`` levels (parentheses, brackets, arguments,
/// `NOT` and unary minus, each of which recurses here and in the compiler) and at most
/// ``maximumDepth`` levels counting chains of infix operators too; deeper input is
/// invalidQuery rather than a stack overflow.
struct SQLPPParser {
    /// Deepest recursion of nested expressions (parentheses, function calls, `NOT`, ...).
    static let maximumNesting = 64
    /// Deepest expression tree, with `a OR b OR c ...` one level per operator (a long list of
    /// alternatives is better written `x IN (a, b, c, ...)`, which does not nest).
    ///
    /// The parser and the compiler recurse once per level, and a query may run on a thread
    /// with a 512 KiB stack (Apple platforms' secondary threads). Both limits leave room there:
    /// the fuzz target runs every query on such a thread, built with AddressSanitizer, whose
    /// frames are larger than a release build's, and the compiler overflowed it at about 250
    /// chained operators or 90 nested calls. Nothing runnable is lost: the SQL these compile to
    /// nests a parenthesis per level, and SQLite's parser refuses about 100 of those.
    static let maximumDepth = 128
    /// A data source named in FROM or JOIN, before it is looked up.
    struct SourceName {
        let scope: String?
        let name: String
        let alias: String?
        let offset: Int
    }

    /// Finds the collection a source names.
    typealias Resolver = (SourceName) throws -> Collection

    private let text: String
    private let tokens: [SQLPPToken]
    private var position = 0
    private var nesting = 0
    private var depth = 0

    init(_ text: String) throws {
        self.text = text
        tokens = try SQLPPTokenizer.tokenize(text)
    }

    // MARK: Entry points

    /// Parses a whole query.
    static func parseQuery(_ text: String, resolve: Resolver) throws -> QueryPlan {
        var parser = try SQLPPParser(text)
        return try parser.parseQuery(resolve: resolve)
    }

    /// Parses one expression (as index definitions give them).
    static func parseExpression(_ text: String) throws -> PlanExpression {
        var parser = try SQLPPParser(text)
        let expression = try parser.parseExpression()
        try parser.expectEnd("an operator or the end of the expression")
        return expression
    }

    // MARK: Tokens

    private var token: SQLPPToken { tokens[position] }

    private mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    private func error(_ expected: String, at token: SQLPPToken? = nil) -> QuireError {
        let at = token ?? self.token
        return QuireError(
            .invalidQuery,
            "invalid SQL++ at \(SQLPPTokenizer.position(of: at.offset, in: text)): expected \(expected), found \(at.shown)"
        )
    }

    private mutating func acceptKeyword(_ word: String) -> Bool {
        guard token.isKeyword(word) else { return false }
        advance()
        return true
    }

    private mutating func expectKeyword(_ word: String, _ expected: String? = nil) throws {
        guard acceptKeyword(word) else { throw error(expected ?? word) }
    }

    private mutating func acceptSymbol(_ symbol: String) -> Bool {
        guard token.isSymbol(symbol) else { return false }
        advance()
        return true
    }

    private mutating func expectSymbol(_ symbol: String, _ expected: String? = nil) throws {
        guard acceptSymbol(symbol) else { throw error(expected ?? "'\(symbol)'") }
    }

    private mutating func expectName(_ expected: String) throws -> String {
        guard let name = token.name else { throw error(expected) }
        advance()
        return name
    }

    /// Enters one level of recursion; balanced by ``leave()``.
    private mutating func enter() throws {
        nesting += 1
        depth += 1
        guard nesting <= Self.maximumNesting else { throw tooDeep("nests more than \(Self.maximumNesting) levels") }
        guard depth <= Self.maximumDepth else { throw tooDeep("is more than \(Self.maximumDepth) levels deep") }
    }

    private mutating func leave() {
        nesting -= 1
        depth -= 1
    }

    /// One more operator in a chain, which deepens the tree without recursing; the caller
    /// restores ``depth`` when the chain ends.
    private mutating func chain() throws {
        depth += 1
        guard depth <= Self.maximumDepth else { throw tooDeep("is more than \(Self.maximumDepth) levels deep") }
    }

    private func tooDeep(_ problem: String) -> QuireError {
        QuireError(
            .invalidQuery,
            "invalid SQL++ at \(SQLPPTokenizer.position(of: token.offset, in: text)): the expression \(problem)")
    }

    private mutating func expectEnd(_ expected: String) throws {
        _ = acceptSymbol(";")
        guard token.kind == .end else { throw error(expected) }
    }

    // MARK: Query

    private mutating func parseQuery(resolve: Resolver) throws -> QueryPlan {
        try expectKeyword("SELECT")
        let distinct = acceptKeyword("DISTINCT")
        if !distinct { _ = acceptKeyword("ALL") }
        var columns: [QueryPlan.Column] = []
        repeat {
            columns.append(try parseResult())
        } while acceptSymbol(",")
        try expectKeyword("FROM", "',' or FROM")
        let from = try parseSource(resolve: resolve)
        var plan = QueryPlan(distinct: distinct, columns: columns, from: from)
        while true {
            if let join = try parseJoin(resolve: resolve) {
                plan.joins.append(join)
            } else if token.isKeyword("UNNEST") {
                plan.unnests.append(try parseUnnest(plan))
            } else {
                break
            }
        }
        if acceptKeyword("WHERE") { plan.whereClause = try parseExpression() }
        if acceptKeyword("GROUP") {
            try expectKeyword("BY")
            repeat { plan.groupBy.append(try parseExpression()) } while acceptSymbol(",")
            if acceptKeyword("HAVING") { plan.having = try parseExpression() }
        }
        if acceptKeyword("ORDER") {
            try expectKeyword("BY")
            repeat {
                let expression = try parseExpression()
                let descending = acceptKeyword("DESC")
                if !descending { _ = acceptKeyword("ASC") }
                plan.orderBy.append(QueryPlan.OrderTerm(expression: expression, descending: descending))
            } while acceptSymbol(",")
        }
        // LIMIT and OFFSET in either order, as Couchbase Lite's grammar has them (n1ql.leg).
        if acceptKeyword("LIMIT") {
            plan.limit = try parseExpression()
            if acceptKeyword("OFFSET") { plan.offset = try parseExpression() }
        } else if acceptKeyword("OFFSET") {
            plan.offset = try parseExpression()
            if acceptKeyword("LIMIT") { plan.limit = try parseExpression() }
        }
        try expectEnd(expectedAfterQuery(plan))
        return plan
    }

    /// What may follow, for the message when a query goes on where it should end.
    private func expectedAfterQuery(_ plan: QueryPlan) -> String {
        if plan.offset != nil && plan.limit != nil { return "the end of the query" }
        if plan.limit != nil { return "OFFSET or the end of the query" }
        if plan.offset != nil { return "LIMIT or the end of the query" }
        return "an operator, WHERE, GROUP BY, ORDER BY, LIMIT, OFFSET or the end of the query"
    }

    private mutating func parseResult() throws -> QueryPlan.Column {
        let expression: PlanExpression
        if acceptSymbol("*") {
            expression = .star(source: nil)
        } else if let name = token.name, tokens[position + 1].isSymbol("."),
            tokens[min(position + 2, tokens.count - 1)].isSymbol("*")
        {
            position += 3
            expression = .star(source: name)
        } else {
            expression = try parseExpression()
        }
        var alias: String?
        if acceptKeyword("AS") {
            alias = try expectName("a result alias after AS")
        } else if let name = token.name {
            alias = name
            advance()
        }
        return QueryPlan.Column(expression: expression, alias: alias)
    }

    private mutating func parseSource(resolve: Resolver) throws -> QueryPlan.Source {
        let start = token
        let first = try expectName("a collection name")
        var scope: String?
        var name = first
        if acceptSymbol(".") {
            scope = first
            name = try expectName("a collection name after '\(first).'")
        }
        let alias = try sourceAlias()
        let collection = try resolve(SourceName(scope: scope, name: name, alias: alias, offset: start.offset))
        // Unaliased, a source is known by the name written: `_`, the database's name or the
        // collection's, so `_.x` and `db.x` qualify properties as in Couchbase Lite.
        return QueryPlan.Source(collection: collection, alias: alias ?? name)
    }

    private mutating func parseJoin(resolve: Resolver) throws -> QueryPlan.JoinClause? {
        let kind: Join.Kind
        if acceptKeyword("JOIN") {
            kind = .inner
        } else if acceptKeyword("INNER") {
            try expectKeyword("JOIN", "JOIN after INNER")
            kind = .inner
        } else if acceptKeyword("LEFT") {
            _ = acceptKeyword("OUTER")
            try expectKeyword("JOIN", "JOIN after LEFT")
            kind = .leftOuter
        } else if acceptKeyword("CROSS") {
            try expectKeyword("JOIN", "JOIN after CROSS")
            kind = .cross
        } else {
            return nil
        }
        let source = try parseSource(resolve: resolve)
        var condition: PlanExpression?
        if kind != .cross {
            try expectKeyword("ON", "ON and the join condition")
            condition = try parseExpression()
        }
        return QueryPlan.JoinClause(kind: kind, source: source, condition: condition)
    }

    /// `UNNEST alias.path [[AS] alias]` (n1ql.leg, `unnest`). `unnest` is no reserved word
    /// here, unlike in Couchbase Lite: it stays a property name everywhere but where a source
    /// ends, so an unquoted `unnest` is no alias of a source written without AS.
    private mutating func parseUnnest(_ plan: QueryPlan) throws -> QueryPlan.UnnestClause {
        advance()
        let start = token
        let expression = try parseExpression()
        // LiteCore's UnnestSourceNode: only a property path may be unnested, not an array
        // literal or another expression (c4ArrayIndexTest "Unnest Array Literal Not Supported").
        guard case .property(let path, let source) = expression, !path.isEmpty || source != nil else {
            throw QuireError(
                .invalidQuery,
                "invalid SQL++ at \(SQLPPTokenizer.position(of: start.offset, in: text)): UNNEST takes a property path of a data source (alias.array), not \(SQLPPPrinter.text(expression))"
            )
        }
        var alias = try sourceAlias()
        if alias == nil {
            // Unaliased, the element is known by the array's name (c4ArrayIndexTest "Unnest
            // Without Alias": `UNNEST profiles.contacts` is `contacts`).
            let aliases = Set(plan.sources.map(\.alias) + plan.unnests.map(\.alias))
            var rest = path
            if source == nil, let first = path.firstKey, aliases.contains(first) { rest = path.droppingFirst }
            guard let name = rest.lastKey else {
                throw error("AS and an alias for the UNNEST of \(SQLPPPrinter.text(expression))")
            }
            alias = name
        }
        return QueryPlan.UnnestClause(expression: expression, alias: alias ?? "", afterJoins: plan.joins.count)
    }

    // MARK: Expressions

    /// An expression, then at most one `COLLATE`, which applies to the whole expression: in
    /// Couchbase Lite's grammar (n1ql.leg, `expr9`) COLLATE binds more loosely than OR, so
    /// `name COLLATE NOCASE = 'ADA'` is a syntax error and `(name = 'ADA') COLLATE NOCASE`, or
    /// `name = 'ADA' COLLATE NOCASE`, the comparison collated.
    mutating func parseExpression() throws -> PlanExpression {
        try enter()
        defer { leave() }
        let expression = try parseOr()
        guard acceptKeyword("COLLATE") else { return expression }
        return .collate(expression, try parseCollation())
    }

    private mutating func parseOr() throws -> PlanExpression {
        try parseLeftAssociative([.or]) { try $0.parseAnd() }
    }

    private mutating func parseAnd() throws -> PlanExpression {
        try parseLeftAssociative([.and]) { try $0.parseNot() }
    }

    /// One precedence level of left-associative operators, `operand (operator operand)*`, the
    /// operators spelt as their raw values (`OR`, `+`). Each operator deepens the tree without
    /// recursing (``chain()``); the depth is restored when the level ends.
    private mutating func parseLeftAssociative(
        _ operators: [PlanExpression.BinaryOperator], operand: (inout Self) throws -> PlanExpression
    ) throws -> PlanExpression {
        let level = depth
        defer { depth = level }
        var left = try operand(&self)
        while let op = operators.first(where: { token.isKeyword($0.rawValue) || token.isSymbol($0.rawValue) }) {
            try chain()
            advance()
            left = .binary(op, left, try operand(&self))
        }
        return left
    }

    private mutating func parseNot() throws -> PlanExpression {
        if acceptKeyword("NOT") {
            try enter()
            defer { leave() }
            return .unary(.not, try parseNot())
        }
        return try parseComparison()
    }

    private static let comparisons: [String: PlanExpression.BinaryOperator] = [
        "=": .equal, "==": .equal, "!=": .notEqual, "<>": .notEqual, "<": .less, "<=": .lessOrEqual, ">": .greater,
        ">=": .greaterOrEqual,
    ]

    private mutating func parseComparison() throws -> PlanExpression {
        let left = try parseConcat()
        if case .symbol(let symbol) = token.kind, let op = SQLPPParser.comparisons[symbol] {
            advance()
            return .binary(op, left, try parseConcat())
        }
        if acceptKeyword("IS") {
            let negated = acceptKeyword("NOT")
            if acceptKeyword("NULL") { return .test(left, negated ? .isNotNull : .isNull) }
            if acceptKeyword("MISSING") { return .test(left, negated ? .isNotMissing : .isMissing) }
            if acceptKeyword("VALUED") { return .test(left, negated ? .isNotValued : .isValued) }
            return .binary(negated ? .isNot : .is, left, try parseConcat())
        }
        let mark = position
        let negated = acceptKeyword("NOT")
        // `x NOT NULL` is `x IS NOT NULL` (n1ql.leg, postOp).
        if negated && acceptKeyword("NULL") { return .test(left, .isNotNull) }
        if acceptKeyword("LIKE") { return .binary(negated ? .notLike : .like, left, try parseConcat()) }
        if acceptKeyword("BETWEEN") {
            let low = try parseConcat()
            try expectKeyword("AND", "AND in BETWEEN")
            return .between(left, low: low, high: try parseConcat(), negated: negated)
        }
        if acceptKeyword("IN") {
            if token.isSymbol("(") || token.isSymbol("[") {
                let closing = token.isSymbol("(") ? ")" : "]"
                advance()
                var items: [PlanExpression] = []
                if !acceptSymbol(closing) {
                    repeat { items.append(try parseExpression()) } while acceptSymbol(",")
                    try expectSymbol(closing, "',' or '\(closing)'")
                }
                return .inList(left, items, negated: negated)
            }
            // n1ql.leg's inExpression: a parenthesized list or an array literal, nothing else
            // (`3 IN likes` is a syntax error in Couchbase Lite).
            throw error("'(' or '[' after IN (a list; ARRAY_CONTAINS(array, value) tests an array)")
        }
        if negated {
            position = mark
            throw error("LIKE, IN, BETWEEN or NULL after NOT", at: tokens[mark + 1])
        }
        return left
    }

    private mutating func parseConcat() throws -> PlanExpression {
        try parseLeftAssociative([.concat]) { try $0.parseAdditive() }
    }

    private mutating func parseAdditive() throws -> PlanExpression {
        try parseLeftAssociative([.add, .subtract]) { try $0.parseMultiplicative() }
    }

    private mutating func parseMultiplicative() throws -> PlanExpression {
        try parseLeftAssociative([.multiply, .divide, .modulo]) { try $0.parseUnary() }
    }

    private mutating func parseUnary() throws -> PlanExpression {
        guard token.isSymbol("-") || token.isSymbol("+") else { return try parsePostfix() }
        try enter()
        defer { leave() }
        if acceptSymbol("+") { return try parseUnary() }
        advance()
        let operand = try parseUnary()
        switch operand {
        case .literal(.int(let number)) where number != Int64.min: return .literal(.int(-number))
        case .literal(.double(let number)): return .literal(.double(-number))
        default: return .unary(.negate, operand)
        }
    }

    /// Paths (`.key`, `[index]`) after a property, or after any other expression
    /// (`{'x': 17}.x`, `ARRAY_AGG(v).x[0]`), which reads into its value as LiteCore's `_.`
    /// operator does (n1ql.leg, `expr0`: a path after a value that is not a property starts
    /// with `.`, so `[10, 20][1]` is a syntax error there, as in Couchbase Lite 3.2.4).
    private mutating func parsePostfix() throws -> PlanExpression {
        let level = depth
        defer { depth = level }
        var expression = try parsePrimary()
        var startsPath: Bool
        if case .property = expression { startsPath = true } else { startsPath = false }
        while true {
            if token.isSymbol("[") && !startsPath {
                throw error("'.' and a property name before an index into a value that is not a property")
            }
            if token.isSymbol(".") || token.isSymbol("[") {
                startsPath = true
                var (path, source): (PropertyPath, String?) = (PropertyPath([]), nil)
                let isProperty: Bool
                if case .property(let propertyPath, let alias) = expression {
                    (path, source, isProperty) = (propertyPath, alias, true)
                } else {
                    isProperty = false
                }
                if acceptSymbol(".") {
                    path.components.append(.key(try expectName("a property name after '.'")))
                } else {
                    advance()
                    let indexToken = token
                    var sign: Int64 = 1
                    if acceptSymbol("-") { sign = -1 }
                    guard case .integer(let index) = token.kind else { throw error("an array index", at: indexToken) }
                    advance()
                    try expectSymbol("]")
                    path.components.append(.index(Int(index * sign)))
                }
                if isProperty {
                    expression = .property(path, source: source)
                } else if let step = path.components.last {
                    try chain()
                    expression = .function(
                        FunctionCatalog.nestedValue, [expression, .literal(.string(PropertyPath([step]).jsonPath))])
                }
            } else {
                return expression
            }
        }
    }

    /// `COLLATE NOCASE`, `COLLATE UNICODE`, `COLLATE (UNICODE:fr NOCASE NODIAC)`: the words of
    /// Couchbase Lite's grammar (n1ql.leg, `collation`), one without parentheses.
    private mutating func parseCollation() throws -> Collation {
        var collation = Collation.ascii()
        var accents: Bool?
        let parenthesized = acceptSymbol("(")
        let expected = "a collation (UNICODE, NOUNICODE, CASE, NOCASE, DIAC, NODIAC)"
        repeat {
            guard case .identifier(let word, false) = token.kind else { throw error(expected) }
            switch word.uppercased() {
            case "UNICODE":
                collation = Collation.unicode().ignoreCase(collation.ignoresCase)
                if tokens[position + 1].isSymbol(":") {
                    advance()
                    advance()
                    guard case .identifier(let locale, _) = token.kind else { throw error("a locale after 'UNICODE:'") }
                    collation = collation.locale(locale)
                }
            case "NOUNICODE": collation = Collation.ascii().ignoreCase(collation.ignoresCase)
            case "NOCASE": collation = collation.ignoreCase(true)
            case "CASE": collation = collation.ignoreCase(false)
            case "NODIAC": accents = true
            case "DIAC": accents = false
            default: throw error(expected)
            }
            advance()
        } while parenthesized && !token.isSymbol(")")
        if let accents { collation = collation.ignoreAccents(accents) }
        if parenthesized { try expectSymbol(")") }
        return collation
    }

    /// Literals, parameters, parenthesized expressions, array and object literals (holding
    /// expressions), `CASE`, quantifiers, `meta([alias])[.property]`, function calls and
    /// property names.
    private mutating func parsePrimary() throws -> PlanExpression {
        let start = token
        switch start.kind {
        case .string(let text):
            advance()
            return .literal(.string(text))
        case .integer(let number):
            advance()
            return .literal(.int(number))
        case .double(let number):
            advance()
            return .literal(.double(number))
        case .parameter(let name):
            advance()
            return .parameter(name)
        case .symbol("("):
            advance()
            let inner = try parseExpression()
            try expectSymbol(")", "')'")
            return inner
        case .symbol("["):
            advance()
            var elements: [PlanExpression] = []
            if !acceptSymbol("]") {
                repeat { elements.append(try parseExpression()) } while acceptSymbol(",")
                try expectSymbol("]", "',' or ']'")
            }
            let constants = elements.compactMap { element -> JSONValue? in
                if case .literal(let value) = element { return value }
                return nil
            }
            if elements.count > TypedFunctions.arrayLiteralLimit {
                // LiteCore's array_of() takes at most 127 arguments (QueryTest "Query Function
                // Argument Limit").
                throw QuireError(
                    .invalidQuery,
                    "an array literal holds at most \(TypedFunctions.arrayLiteralLimit) elements, not \(elements.count)"
                )
            }
            if constants.count == elements.count { return .literal(.array(constants)) }
            return .function(TypedFunctions.arrayLiteral, elements)
        case .symbol("{"):
            advance()
            var members: [(String, PlanExpression)] = []
            if !acceptSymbol("}") {
                repeat {
                    guard case .string(let key) = token.kind else { throw error("a string key in the object literal") }
                    advance()
                    try expectSymbol(":", "':' after the key")
                    members.append((key, try parseExpression()))
                } while acceptSymbol(",")
                try expectSymbol("}", "',' or '}'")
            }
            var constants: [String: JSONValue] = [:]
            for (key, value) in members {
                if case .literal(let constant) = value { constants[key] = constant }
            }
            if constants.count == members.count { return .literal(.object(constants)) }
            return .function(
                TypedFunctions.objectLiteral, members.flatMap { [PlanExpression.literal(.string($0.0)), $0.1] })
        case .identifier(let word, let quoted):
            if !quoted {
                switch word.uppercased() {
                case "TRUE":
                    advance()
                    return .literal(.bool(true))
                case "FALSE":
                    advance()
                    return .literal(.bool(false))
                case "NULL":
                    advance()
                    return .literal(.null)
                case "MISSING":
                    advance()
                    return .missing
                case "ANY", "SOME", "EVERY": return try parseQuantified()
                case "CASE": return try parseCase()
                default: break
                }
            }
            if !quoted && tokens[position + 1].isSymbol("(") {
                return try parseCall()
            }
            guard let name = start.name else { throw error("an expression") }
            advance()
            return .property(PropertyPath([.key(name)]), source: nil)
        default:
            throw error("an expression")
        }
    }

    /// `CASE [operand] WHEN a THEN b ... [ELSE e] END` (n1ql.leg, `caseExpression`).
    private mutating func parseCase() throws -> PlanExpression {
        advance()
        try enter()
        defer { leave() }
        var arguments: [PlanExpression] = []
        let hasOperand = !token.isKeyword("WHEN")
        if hasOperand { arguments.append(try parseExpression()) }
        try expectKeyword("WHEN", "WHEN")
        repeat {
            arguments.append(try parseExpression())
            try expectKeyword("THEN", "THEN")
            arguments.append(try parseExpression())
        } while acceptKeyword("WHEN")
        if acceptKeyword("ELSE") { arguments.append(try parseExpression()) }
        try expectKeyword("END", "WHEN, ELSE or END")
        return .function(hasOperand ? TypedFunctions.simpleCase : TypedFunctions.searchedCase, arguments)
    }

    private mutating func parseQuantified() throws -> PlanExpression {
        var quantifier: PlanExpression.Quantifier = token.isKeyword("EVERY") ? .every : .any
        advance()
        if quantifier == .any && acceptKeyword("AND") {
            try expectKeyword("EVERY", "EVERY after ANY AND")
            quantifier = .anyAndEvery
        }
        let variable = try expectName("a variable name")
        try expectKeyword("IN", "IN after the variable")
        let array = try parseConcat()
        try expectKeyword("SATISFIES")
        let condition = try parseExpression()
        try expectKeyword("END", "END after the SATISFIES condition")
        return .quantified(quantifier, variable: variable, array: array, satisfies: condition)
    }

    private mutating func parseCall() throws -> PlanExpression {
        let nameToken = token
        guard case .identifier(let word, _) = nameToken.kind else { throw error("a function name") }
        let name = TypedFunctions.synonyms[word.uppercased()] ?? word.uppercased()
        advance()
        try expectSymbol("(")
        if name == "META" {
            let source = token.isSymbol(")") ? nil : try expectName("a data source alias or ')'")
            try expectSymbol(")", "')'")
            // A bare meta() is the metadata as an object (LiteCore's "Query META").
            guard acceptSymbol(".") else { return QueryCompiler.metaObject(source: source) }
            let propertyToken = token
            let property = try expectName("a metadata property (id, revisionID, sequence, deleted, expiration)")
            guard let meta = MetaProperty.allCases.first(where: { $0.rawValue.lowercased() == property.lowercased() })
            else {
                throw error("a metadata property (id, revisionID, sequence, deleted, expiration)", at: propertyToken)
            }
            return .meta(meta, source: source)
        }
        if name == "MATCH" || name == "RANK" {
            let index = try parseIndexName()
            if name == "RANK" {
                try expectSymbol(")", "')'")
                return .rank(index: index.name, source: index.source)
            }
            try expectSymbol(",", "',' and the full-text query")
            let query = try parseExpression()
            try expectSymbol(")", "')'")
            return .match(index: index.name, source: index.source, query: query)
        }
        guard FunctionCatalog.knownNames.contains(name) || TypedFunctions.synonyms[word.uppercased()] != nil else {
            throw QuireError(
                .invalidQuery,
                "invalid SQL++ at \(SQLPPTokenizer.position(of: nameToken.offset, in: text)): unknown function \(word)()"
            )
        }
        var arguments: [PlanExpression] = []
        if name == "COUNT" && token.isSymbol("*") {
            advance()
            arguments = [.star(source: nil)]
        } else if !token.isSymbol(")") {
            repeat { arguments.append(try parseExpression()) } while acceptSymbol(",")
        }
        try expectSymbol(")", "',' or ')'")
        return .function(name, arguments)
    }

    /// `index` or `alias.index`: an identifier, as in Couchbase Lite (a string is refused).
    private mutating func parseIndexName() throws -> (source: String?, name: String) {
        if case .string = token.kind {
            throw error("a full-text index name (an identifier, not a string)")
        }
        let first = try expectName("a full-text index name")
        if acceptSymbol(".") {
            return (first, try expectName("an index name after '\(first).'"))
        }
        return (nil, first)
    }
}

extension SQLPPParser {
    /// The alias after a data source or an UNNEST: `AS name`, or a bare name that is not the
    /// next UNNEST.
    fileprivate mutating func sourceAlias() throws -> String? {
        if acceptKeyword("AS") { return try expectName("an alias after AS") }
        guard let word = token.name, !token.isKeyword("UNNEST") else { return nil }
        advance()
        return word
    }
}
