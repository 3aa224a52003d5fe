import Foundation
import QuireTestSupport
import Testing

@testable import Quire

extension SeededGenerator {
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}

/// One condition written three ways: with the builder, in SQL++, and as hand-written SQLite
/// over the documents table (the reference).
struct DifferentialPredicate {
    let builder: any ExpressionProtocol
    let sqlpp: String
    let reference: String
    /// SQL true when the reference's NULL stands for a JSON null rather than for MISSING.
    var isNull = "0"

    /// The reference as an operand of AND, OR and NOT in Couchbase Lite: LiteCore reads a JSON
    /// null as an empty blob, which SQLite's logic reads as 0 (FALSE), while MISSING stays NULL.
    var logicalReference: String {
        isNull == "0"
            ? "(\(reference))" : "(CASE WHEN (\(reference)) IS NOT NULL THEN (\(reference)) WHEN \(isNull) THEN 0 END)"
    }
}

@Suite(.offCooperativePool) struct QueryDifferentialTests {
    static let words = ["alpha", "beta", "Gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    static let colors = ["red", "green", "blue", "gold"]

    /// Generates the documents: most fields are sometimes MISSING and sometimes null.
    private func populate(_ f: QueryFixture, _ random: inout SeededGenerator) throws -> Int64 {
        var documents: [String: String] = [:]
        for number in 0..<300 {
            var members: [String] = ["\"g\":\(number % 5)"]
            let roll = random.int(1...10)
            if roll == 1 {
                members.append("\"n\":null")
            } else if roll > 2 {
                members.append("\"n\":\(random.int(-20...50))")
            }
            if random.chance(80) { members.append("\"x\":\(Double(random.int(-400...400)) / 8)") }
            let word = random.int(1...10)
            if word == 1 {
                members.append("\"s\":null")
            } else if word > 2 {
                members.append("\"s\":\"\(random.pick(Self.words))\"")
            }
            if random.chance(70) { members.append("\"b\":\(random.chance(50))") }
            if random.chance(85) {
                let tags = (0..<random.int(0...3)).map { _ in "\"\(random.pick(Self.colors))\"" }
                members.append("\"tags\":[\(tags.joined(separator: ","))]")
            }
            if random.chance(75) {
                members.append("\"o\":{\"k\":\(random.int(0...9)),\"s\":\"\(random.pick(Self.words))\"}")
            }
            documents[String(format: "d%03d", number)] = "{" + members.joined(separator: ",") + "}"
        }
        try f.save(documents)
        // Some deleted, some expired (written straight into the table, as if the housekeeper
        // had not run yet), some expiring later.
        let now = QueryClock.milliseconds(f.clock.now)
        for number in stride(from: 7, to: 300, by: 23) {
            try f.collection.delete(
                document: try #require(try f.collection.document(id: String(format: "d%03d", number))))
        }
        try f.database.write { connection in
            for number in stride(from: 11, to: 300, by: 19) {
                try connection.run(
                    "UPDATE \(f.collection.table) SET expiration = ? WHERE key = ?",
                    [.integer(number % 2 == 0 ? now - 1000 : now + 86_400_000), .text(String(format: "d%03d", number))])
            }
        }
        return now
    }

    // MARK: Predicates

    private func atom(_ random: inout SeededGenerator) -> DifferentialPredicate {
        let ops: [(String, (any ExpressionProtocol, any ExpressionProtocol) -> any ExpressionProtocol)] = [
            ("=", { $0.equalTo($1) }), ("!=", { $0.notEqualTo($1) }), ("<", { $0.lessThan($1) }),
            ("<=", { $0.lessThanOrEqualTo($1) }), (">", { $0.greaterThan($1) }),
            (">=", { $0.greaterThanOrEqualTo($1) }),
        ]
        let (op, apply) = random.pick(ops)
        let n = "json_extract(body, '$.n')"
        switch random.int(0...24) {
        case 0:
            let k = random.int(-20...50)
            return DifferentialPredicate(
                builder: apply(Expression.property("n"), Expression.int(k)), sqlpp: "n \(op) \(k)",
                reference: "\(n) \(op) \(k)", isNull: "json_type(body, '$.n') = 'null'")
        case 1:
            let k = Double(random.int(-160...160)) / 4
            return DifferentialPredicate(
                builder: apply(Expression.property("x"), Expression.double(k)), sqlpp: "x \(op) \(k)",
                reference: "json_extract(body, '$.x') \(op) \(k)")
        case 2:
            let word = random.pick(Self.words)
            return DifferentialPredicate(
                builder: apply(Expression.property("s"), Expression.string(word)), sqlpp: "s \(op) '\(word)'",
                reference: "json_extract(body, '$.s') \(op) '\(word)'", isNull: "json_type(body, '$.s') = 'null'")
        case 3:
            let pattern = random.pick(["a%", "%ta", "_eta", "%e%", "G%", "g%"])
            return DifferentialPredicate(
                builder: Expression.property("s").like(Expression.string(pattern)), sqlpp: "s LIKE '\(pattern)'",
                // LIKE is case-sensitive, as in LiteCore: SQLite's GLOB is the reference.
                reference:
                    "json_extract(body, '$.s') GLOB '\(pattern.replacingOccurrences(of: "%", with: "*").replacingOccurrences(of: "_", with: "?"))'",
                isNull: "json_type(body, '$.s') = 'null'")
        case 4:
            let low = random.int(-20...30)
            let high = low + random.int(0...25)
            return DifferentialPredicate(
                builder: Expression.property("n").between(Expression.int(low), and: Expression.int(high)),
                sqlpp: "n BETWEEN \(low) AND \(high)", reference: "\(n) >= \(low) AND \(n) <= \(high)",
                isNull: "json_type(body, '$.n') = 'null'")
        case 5:
            let values = (0..<3).map { _ in random.int(-20...50) }
            return DifferentialPredicate(
                builder: Expression.property("n").in(values.map { Expression.int($0) }),
                sqlpp: "n IN (\(values.map(String.init).joined(separator: ", ")))",
                reference: "(\(n) = \(values[0]) OR \(n) = \(values[1]) OR \(n) = \(values[2]))",
                isNull: "json_type(body, '$.n') = 'null'")
        case 6:
            let field = random.pick(["n", "s", "b", "tags", "o"])
            let type = "json_type(body, '$.\(field)')"
            switch random.int(0...3) {
            case 0:
                return DifferentialPredicate(
                    builder: Expression.property(field).isValued(), sqlpp: "\(field) IS VALUED",
                    reference: "(\(type) IS NOT NULL AND \(type) <> 'null')")
            case 1:
                return DifferentialPredicate(
                    builder: Expression.property(field).isNotValued(), sqlpp: "\(field) IS NOT VALUED",
                    reference: "(\(type) IS NULL OR \(type) = 'null')")
            case 2:
                return DifferentialPredicate(
                    builder: Expression.property(field).is(Expression.value(nil)), sqlpp: "\(field) IS NULL",
                    reference: "\(type) = 'null'")
            default:
                return DifferentialPredicate(
                    builder: Expression.property(field).is(Expression.missing),
                    sqlpp: "\(field) IS MISSING", reference: "\(type) IS NULL")
            }
        case 7:
            let flag = random.chance(50)
            return DifferentialPredicate(
                builder: Expression.property("b").equalTo(Expression.boolean(flag)),
                sqlpp: "b = \(flag ? "TRUE" : "FALSE")",
                reference: "json_type(body, '$.b') = '\(flag)'")
        case 8:
            let k = random.int(0...9)
            return DifferentialPredicate(
                builder: apply(Expression.property("o.k"), Expression.int(k)), sqlpp: "o.k \(op) \(k)",
                reference: "json_extract(body, '$.o.k') \(op) \(k)")
        case 9:
            let color = random.pick(Self.colors)
            return DifferentialPredicate(
                builder: Expression.property("tags[0]").equalTo(Expression.string(color)),
                sqlpp: "tags[0] = '\(color)'",
                reference: "json_extract(body, '$.tags[0]') = '\(color)'")
        case 10:
            let color = random.pick(Self.colors)
            let tag = ArrayExpression.variable("t")
            return DifferentialPredicate(
                builder: ArrayExpression.any(tag).in(Expression.property("tags")).satisfies(
                    tag.equalTo(Expression.string(color))),
                sqlpp: "ANY t IN tags SATISFIES t = '\(color)' END",
                reference: "EXISTS (SELECT 1 FROM json_each(body, '$.tags') AS each WHERE each.value = '\(color)')")
        case 11:
            let color = random.pick(Self.colors)
            let tag = ArrayExpression.variable("t")
            return DifferentialPredicate(
                builder: ArrayExpression.every(tag).in(Expression.property("tags")).satisfies(
                    tag.notEqualTo(Expression.string(color))),
                sqlpp: "EVERY t IN tags SATISFIES t != '\(color)' END",
                reference:
                    "json_type(body, '$.tags') = 'array' AND NOT EXISTS (SELECT 1 FROM json_each(body, '$.tags') AS each WHERE each.value = '\(color)')"
            )
        case 12:
            let k = random.int(0...3)
            return DifferentialPredicate(
                builder: apply(ArrayFunction.length(Expression.property("tags")), Expression.int(k)),
                sqlpp: "ARRAY_LENGTH(tags) \(op) \(k)",
                reference: "ifnull(json_array_length(body, '$.tags'), 0) \(op) \(k)")
        case 13:
            let color = random.pick(Self.colors)
            return DifferentialPredicate(
                builder: ArrayFunction.contains(Expression.property("tags"), value: Expression.string(color)),
                sqlpp: "ARRAY_CONTAINS(tags, '\(color)')",
                // MISSING or null unless `tags` is an array (LiteCore's fl_array_contains).
                reference:
                    "CASE WHEN json_type(body, '$.tags') = 'array' THEN EXISTS (SELECT 1 FROM json_each(body, '$.tags') AS each WHERE each.value = '\(color)') END"
            )
        case 14:
            let k = random.int(-30...90)
            return DifferentialPredicate(
                builder: apply(
                    Expression.property("n").multiply(Expression.int(2)).add(Expression.int(1)), Expression.int(k)),
                // Arithmetic reads a null as LiteCore's empty blob, which SQLite reads as 0.
                sqlpp: "n * 2 + 1 \(op) \(k)", reference: "\(Self.asBlob("n")) * 2 + 1 \(op) \(k)")
        case 15:
            return DifferentialPredicate(
                builder: Expression.property("n").modulo(Expression.int(3)).equalTo(Expression.int(0)),
                sqlpp: "n % 3 = 0",
                reference: "\(Self.asBlob("n")) % 3 = 0")
        case 16:
            let word = random.pick(Self.words).lowercased()
            return DifferentialPredicate(
                builder: Function.lower(Expression.property("s")).equalTo(Expression.string(word)),
                sqlpp: "LOWER(s) = '\(word)'",
                reference: "lower(json_extract(body, '$.s')) = '\(word)'", isNull: "json_type(body, '$.s') = 'null'")
        case 17:
            let k = random.int(2...6)
            return DifferentialPredicate(
                builder: apply(Function.length(Expression.property("s")), Expression.int(k)),
                sqlpp: "LENGTH(s) \(op) \(k)",
                reference: "length(json_extract(body, '$.s')) \(op) \(k)", isNull: "json_type(body, '$.s') = 'null'")
        case 18:
            let id = String(format: "d%03d", random.int(0...299))
            return DifferentialPredicate(
                builder: apply(Meta.id, Expression.string(id)), sqlpp: "meta().id \(op) '\(id)'",
                reference: "key \(op) '\(id)'")
        // The MISSING and null rules of Couchbase Lite's functions, written out by hand.
        case 19:
            let k = random.int(-5...30)
            return DifferentialPredicate(
                builder: apply(
                    call("IFMISSINGORNULL", Expression.property("n"), Expression.int(-1)), Expression.int(k)),
                sqlpp: "IFMISSINGORNULL(n, -1) \(op) \(k)", reference: "ifnull(\(n), -1) \(op) \(k)")
        case 20:
            let k = random.int(-5...30)
            return DifferentialPredicate(
                builder: apply(call("IFMISSING", Expression.property("n"), Expression.int(-1)), Expression.int(k)),
                sqlpp: "IFMISSING(n, -1) \(op) \(k)",
                reference: "(CASE WHEN json_type(body, '$.n') IS NULL THEN -1 ELSE \(n) END) \(op) \(k)",
                isNull: "json_type(body, '$.n') = 'null'")
        case 21:
            let word = random.chance(20) ? "null" : random.pick(Self.words)
            let concat = QueryExpression(.binary(.concat, Expression.string("s=").plan, Expression.property("s").plan))
            return DifferentialPredicate(
                builder: concat.equalTo(Expression.string("s=\(word)")), sqlpp: "'s=' || s = 's=\(word)'",
                reference:
                    "(CASE json_type(body, '$.s') WHEN 'null' THEN 's=null' ELSE 's=' || json_extract(body, '$.s') END) = 's=\(word)'"
            )
        case 22:
            let k = random.int(0...1)
            return DifferentialPredicate(
                builder: call("TONUMBER", Expression.property("b")).equalTo(Expression.int(k)),
                sqlpp: "TONUMBER(b) = \(k)",
                reference: "(CASE json_type(body, '$.b') WHEN 'true' THEN 1 WHEN 'false' THEN 0 END) = \(k)",
                isNull: "json_type(body, '$.b') = 'null'")
        case 23:
            let field = random.pick(["n", "s", "b", "tags", "o"])
            let name = random.pick(["number", "string", "boolean", "array", "object", "null"])
            let type = "json_type(body, '$.\(field)')"
            return DifferentialPredicate(
                builder: call("TYPE", Expression.property(field)).equalTo(Expression.string(name)),
                sqlpp: "TYPE(\(field)) = '\(name)'",
                reference:
                    "(CASE \(type) WHEN 'integer' THEN 'number' WHEN 'real' THEN 'number' WHEN 'text' THEN 'string' WHEN 'true' THEN 'boolean' WHEN 'false' THEN 'boolean' WHEN 'null' THEN NULL ELSE \(type) END) = '\(name)'"
            )
        default:
            let word = random.pick(Self.words).uppercased()
            return DifferentialPredicate(
                builder: Expression.property("s").collate(Collation.ascii().ignoreCase(true)).equalTo(
                    Expression.string(word)),
                sqlpp: "(s COLLATE NOCASE) = '\(word)'",
                // The collation on the left: SQLite 3.40 answers `a = 'X' COLLATE NOCASE OR
                // a = 'Y' COLLATE NOCASE` from a BINARY index on `a`, wrongly.
                reference: "json_extract(body, '$.s') COLLATE NOCASE = '\(word)'",
                isNull: "json_type(body, '$.s') = 'null'")
        }
    }

    /// A call of a function the builder API has no method for.
    private func call(_ name: String, _ arguments: any ExpressionProtocol...) -> any ExpressionProtocol {
        QueryExpression(.function(name, arguments.map(\.plan)))
    }

    private func predicate(_ random: inout SeededGenerator, depth: Int = 0) -> DifferentialPredicate {
        guard depth < 2, random.chance(45) else { return atom(&random) }
        let left = predicate(&random, depth: depth + 1)
        switch random.int(0...4) {
        case 0:
            return DifferentialPredicate(
                builder: Expression.not(left.builder), sqlpp: "NOT (\(left.sqlpp))",
                reference: "NOT \(left.logicalReference)")
        case 1, 2:
            let right = predicate(&random, depth: depth + 1)
            return DifferentialPredicate(
                builder: left.builder.and(right.builder), sqlpp: "(\(left.sqlpp)) AND (\(right.sqlpp))",
                reference: "\(left.logicalReference) AND \(right.logicalReference)")
        default:
            let right = predicate(&random, depth: depth + 1)
            return DifferentialPredicate(
                builder: left.builder.or(right.builder), sqlpp: "(\(left.sqlpp)) OR (\(right.sqlpp))",
                reference: "\(left.logicalReference) OR \(right.logicalReference)")
        }
    }

    // MARK: Queries

    /// One generated query, three ways.
    private struct Case {
        let builder: Query
        let sqlpp: String
        let reference: String
        /// The reference's columns: (value, type) index pairs, a type index of nil meaning a
        /// plain SQL value (NULL is null).
        let referenceColumns: [(Int32, Int32?)]
    }

    private func makeCase(_ f: QueryFixture, _ random: inout SeededGenerator, now: Int64) -> Case {
        let condition = predicate(&random)
        let live = "flags & 1 = 0 AND (expiration IS NULL OR expiration > \(now))"
        // The rows with their bodies as JSON (the store keeps identifier keys bare).
        let documents = "(SELECT key, flags, expiration, quire_body(body) AS body FROM \(f.collection.table))"
        let from = DataSource.collection(f.collection)
        switch random.int(0...9) {
        case 0...5:
            return Case(
                builder: QueryBuilder.select(SelectResult.expression(Meta.id)).from(from).where(condition.builder)
                    .orderBy(Ordering.expression(Meta.id)),
                sqlpp: "SELECT meta().id FROM store.items WHERE \(condition.sqlpp) ORDER BY meta().id",
                reference:
                    "SELECT key FROM \(documents) WHERE \(live) AND (\(condition.reference)) ORDER BY key",
                referenceColumns: [(0, nil)])
        case 6...8:
            let field = random.pick(["n", "x", "s", "o", "o.k", "tags"])
            let key = random.pick(["n", "x", "s", "o.k"])
            let descending = random.chance(50)
            let limit = random.int(1...40)
            let offset = random.int(0...10)
            let path = "'$.\(field)'"
            return Case(
                builder: QueryBuilder.select(SelectResult.expression(Meta.id), SelectResult.property(field).as("v"))
                    .from(from)
                    .where(condition.builder)
                    .orderBy(
                        descending ? Ordering.property(key).descending() : Ordering.property(key),
                        Ordering.expression(Meta.id)
                    )
                    .limit(Expression.int(limit), offset: Expression.int(offset)),
                sqlpp:
                    "SELECT meta().id, \(field) AS v FROM store.items WHERE \(condition.sqlpp) ORDER BY \(key)\(descending ? " DESC" : ""), meta().id LIMIT \(limit) OFFSET \(offset)",
                reference:
                    "SELECT key, json_extract(body, \(path)), json_type(body, \(path)) FROM \(documents) WHERE \(live) AND (\(condition.reference)) ORDER BY CASE json_type(body, '$.\(key)') WHEN 'null' THEN x'' ELSE json_extract(body, '$.\(key)') END\(descending ? " DESC" : ""), key LIMIT \(limit) OFFSET \(offset)",
                referenceColumns: [(0, nil), (1, 2)])
        default:
            return Case(
                builder: QueryBuilder.select(
                    SelectResult.property("g"), SelectResult.expression(Function.count(Expression.all())).as("c"),
                    SelectResult.expression(Function.sum(Expression.property("n"))).as("t"),
                    SelectResult.expression(Function.min(Expression.property("s"))).as("m")
                ).from(from).where(condition.builder).groupBy(Expression.property("g")).orderBy(Ordering.property("g")),
                sqlpp:
                    "SELECT g, COUNT(*) AS c, SUM(n) AS t, MIN(s) AS m FROM store.items WHERE \(condition.sqlpp) GROUP BY g ORDER BY g",
                // SUM and MIN of nothing are MISSING, as SQLite's NULL is in LiteCore; they read
                // a null as LiteCore's empty blob.
                reference:
                    "SELECT json_extract(body, '$.g'), count(*), sum(\(Self.asBlob("n"))), CASE WHEN sum(\(Self.asBlob("n"))) IS NULL THEN NULL ELSE 'value' END, min(\(Self.asBlob("s"))), CASE WHEN min(\(Self.asBlob("s"))) IS NULL THEN NULL ELSE 'value' END FROM \(documents) WHERE \(live) AND (\(condition.reference)) GROUP BY json_extract(body, '$.g') ORDER BY 1",
                referenceColumns: [(0, nil), (1, nil), (2, 3), (4, 5)])
        }
    }

    /// A scalar property as LiteCore gives it to SQLite: a JSON null as an empty blob.
    static func asBlob(_ field: String) -> String {
        "(CASE json_type(body, '$.\(field)') WHEN 'null' THEN x'' ELSE json_extract(body, '$.\(field)') END)"
    }

    /// Reads the reference rows, MISSING where the JSON type is NULL.
    private func referenceRows(_ f: QueryFixture, _ testCase: Case) throws -> [[JSONValue?]] {
        try f.database.read { connection in
            try connection.query(testCase.reference) { row in
                testCase.referenceColumns.map { valueIndex, typeIndex -> JSONValue? in
                    let type = typeIndex.map { row.text(at: $0) }
                    switch type {
                    case .some(nil): return nil
                    case .some("null"?): return .null
                    case .some("true"?): return .bool(true)
                    case .some("false"?): return .bool(false)
                    case .some("array"?), .some("object"?): return try? JSONReader.parse(row.text(at: valueIndex) ?? "")
                    default:
                        switch row.value(at: valueIndex) {
                        case .null: return .null
                        case .integer(let number): return .int(number)
                        case .real(let number): return .double(number)
                        case .text(let text): return .string(text)
                        case .blob(let bytes): return bytes.isEmpty ? .null : nil
                        }
                    }
                }
            }
        }
    }

    private func quireRows(_ query: Query) throws -> [[JSONValue?]] {
        try query.execute().allResults().map { result in (0..<result.count).map { result.jsonValue(at: $0) } }
    }

    @Test func generatedQueriesAgreeWithHandWrittenSQLite() throws {
        let f = try QueryFixture()
        var random = SeededGenerator(seed: 0x5155_4952_4551_5259)
        let now = try populate(f, &random)
        var cases: [Case] = []
        for _ in 0..<300 { cases.append(makeCase(f, &random, now: now)) }
        var nonEmpty = 0
        for round in 0..<2 {
            if round == 1 {
                // Indexes change plans, never results.
                try f.collection.createIndex(withName: "n", config: ValueIndexConfiguration(["n"]))
                try f.collection.createIndex(withName: "s", config: ValueIndexConfiguration(["s", "o.k"]))
                try f.collection.createIndex(withName: "g", config: ValueIndexConfiguration(["g"], where: "n > 0"))
            }
            for testCase in cases {
                let expected = try referenceRows(f, testCase)
                let built = try quireRows(testCase.builder)
                let parsed = try quireRows(try f.database.createQuery(testCase.sqlpp))
                #expect(built == expected, "builder: \(testCase.sqlpp)\nreference: \(testCase.reference)")
                #expect(parsed == expected, "SQL++: \(testCase.sqlpp)")
                if round == 0 && !expected.isEmpty { nonEmpty += 1 }
            }
        }
        // The generator is useful only if most queries find something.
        #expect(nonEmpty > 150)
    }
}
