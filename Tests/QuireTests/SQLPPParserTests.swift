import Foundation
import Testing

@testable import Quire

@Suite struct SQLPPParserTests {
    private func fixture() throws -> QueryFixture {
        let f = try QueryFixture()
        try f.save([
            "a": #"{"name":"Ann","age":31,"address":{"city":"Oslo"},"tags":["x","y"]}"#,
            "b": #"{"name":"bob","age":25,"address":{"city":"Rome"},"tags":[]}"#,
        ])
        return f
    }

    /// The error a query raises.
    private func failure(_ f: QueryFixture, _ text: String) -> QuireError? {
        do {
            _ = try f.database.createQuery(text).execute()
            return nil
        } catch {
            return error as? QuireError
        }
    }

    @Test func parseErrorsSayWhereAndWhatWasExpected() throws {
        let f = try fixture()
        let cases: [(String, String)] = [
            ("SELECT FROM store.items", "line 1, column 8 (offset 7): expected an expression, found 'FROM'"),
            ("SELECT name store.items", "line 1, column 18 (offset 17): expected ',' or FROM, found '.'"),
            ("SELECT name FROM store.items WHERE", "offset 34): expected an expression, found the end of the query"),
            ("SELECT name FROM store.items WHERE age >", "offset 40): expected an expression"),
            (
                "SELECT name FROM store.items\nWHERE (age > 1",
                "line 2, column 15 (offset 43): expected ')', found the end of the query"
            ),
            (
                "SELECT name FROM store.items LIMIT 1 LIMIT 2",
                "offset 37): expected OFFSET or the end of the query, found 'LIMIT'"
            ),
            (
                "SELECT name FROM store.items WHERE name NOT age",
                "offset 44): expected LIKE, IN, BETWEEN or NULL after NOT, found 'age'"
            ),
            ("SELECT name FROM store.items WHERE 'abc", "offset 35): unterminated string"),
            ("SELECT name FROM store.items WHERE a ^ b", "offset 37): unexpected character '^'"),
            ("SELECT nope(name) FROM store.items", "offset 7): unknown function nope()"),
            ("SELECT name FROM store.nothing", "offset 17): no collection named 'store.nothing'"),
            (
                "SELECT meta().size FROM store.items",
                "expected a metadata property (id, revisionID, sequence, deleted, expiration), found 'size'"
            ),
            (
                "SELECT name FROM store.items WHERE ANY t IN tags SATISFIES t = 1",
                "expected END after the SATISFIES condition"
            ),
            (
                "SELECT name FROM store.items JOIN store.items AS o",
                "expected ON and the join condition, found the end of the query"
            ),
        ]
        for (text, expected) in cases {
            let error = failure(f, text)
            #expect(error?.code == .invalidQuery, "\(text)")
            #expect(error?.message.contains(expected) == true, "\(text): \(error?.message ?? "no error")")
        }
        #expect(
            failure(f, "SELECT count(name, age) FROM store.items")?.message.contains("COUNT() takes 1 argument, not 2")
                == true)
    }

    @Test func sqlppAndBuilderCompileToTheSameSQL() throws {
        let f = try fixture()
        let text = try f.database.createQuery(
            "SELECT meta().id AS id, name FROM store.items AS p WHERE p.age >= 25 AND address.city LIKE 'O%' ORDER BY name DESC LIMIT 10"
        )
        let built = QueryBuilder.select(SelectResult.expression(Meta.id).as("id"), SelectResult.property("name"))
            .from(DataSource.collection(f.collection).as("p"))
            .where(
                Expression.property("p.age").greaterThanOrEqualTo(Expression.int(25))
                    .and(Expression.property("address.city").like(Expression.string("O%")))
            )
            .orderBy(Ordering.property("name").descending()).limit(Expression.int(10))
        let sqlFromText = try f.database.read { try text.compile($0).sql }
        let sqlFromBuilder = try f.database.read { try built.compile($0).sql }
        #expect(sqlFromText == sqlFromBuilder)
        #expect(try text.rows() == [#"{"id":"a","name":"Ann"}"#])
    }

    @Test func builderQueriesPrintAsSQLPPThatParsesBackToTheSameSQL() throws {
        let f = try fixture()
        let tag = ArrayExpression.variable("t")
        let built = QueryBuilder.selectDistinct(
            SelectResult.expression(Meta.id.from("p")).as("id"), SelectResult.property("p.address.city"),
            SelectResult.expression(
                Function.upper(Expression.property("name")).collate(Collation.unicode().ignoreCase(true))),
            SelectResult.expression(Function.count(Expression.all())).as("select")
        ).from(DataSource.collection(f.collection).as("p"))
            .where(
                Expression.property("age").between(Expression.int(1), and: Expression.double(99.5))
                    .and(
                        Expression.property("name").regex(Expression.string("^[A-Z]")).or(
                            Expression.property("name").is(Expression.missing))
                    )
                    .and(
                        ArrayExpression.any(tag).in(Expression.property("tags")).satisfies(
                            tag.in([Expression.string("x"), Expression.boolean(true)]))
                    )
                    .and(Expression.not(Expression.property("odd key").isValued()))
                    .and(Expression.property("age").notEqualTo(Expression.parameter("skip")))
            )
            .groupBy(Meta.id.from("p"), Expression.property("name"), Expression.property("p.address.city"))
            .having(Function.count(Expression.all()).greaterThan(Expression.int(0)))
            .orderBy(Ordering.property("name").descending()).limit(Expression.int(5), offset: Expression.int(0))
        let parsed = try f.database.createQuery(built.description)
        let builtSQL = try f.database.read { try built.compile($0).sql }
        let parsedSQL = try f.database.read { try parsed.compile($0).sql }
        #expect(builtSQL == parsedSQL, "\(built.description)")
        #expect(try parsed.rows() == built.rows())
    }

    @Test func caseLiteralsAndTypedFunctionsPrintBackToTheSameSQL() throws {
        let f = try fixture()
        let parsed = try f.database.createQuery(
            """
            SELECT CASE age WHEN 31 THEN 'a' ELSE 'b' END AS c, CASE WHEN age > 30 THEN [age, name] END AS w,
                {"n": name, "t": tags} AS o, meta() AS m, name || '!' AS s, CONCAT(name, 1, TRUE) AS k,
                TO_STRING(age) AS t, ARRAY_COUNT(tags) AS n
            FROM store.items WHERE (name COLLATE NOUNICODE) = 'bob' OR IS_STRING(address) ORDER BY name
            """)
        let printed = SQLPPPrinter.text(parsed.plan)
        let reparsed = try f.database.createQuery(printed)
        let parsedSQL = try f.database.read { try parsed.compile($0).sql }
        let reparsedSQL = try f.database.read { try reparsed.compile($0).sql }
        #expect(parsedSQL == reparsedSQL, "\(printed)")
        let rows = try parsed.execute().allResults().map { $0.toJSON() }
        #expect(rows.count == 1)
        #expect(rows.first?.contains(#""c":"b""#) == true, "\(rows)")
        #expect(rows.first?.contains(#""k":"bob1true""#) == true, "\(rows)")
        #expect(rows.first?.contains(#""o":{"n":"bob","t":[]}"#) == true, "\(rows)")
        #expect(try reparsed.rows() == parsed.rows())
        #expect(Collation.ascii().ignoreCase(true).description == "(NOUNICODE NOCASE)")
    }

    @Test func acceptsTheSupportedSyntax() throws {
        let f = try fixture()
        func rows(_ text: String) throws -> [String] { try f.database.createQuery(text).rows() }
        #expect(try rows("select NAME from store.items where meta().id = 'a'") == ["{}"])
        #expect(try rows("SELECT `name` FROM store.items p WHERE p.`address`.city = \"Oslo\";") == [#"{"name":"Ann"}"#])
        #expect(
            try rows("SELECT p.* FROM store.items p WHERE meta(p).id = 'b'") == [
                #"{"p":{"address":{"city":"Rome"},"age":25,"name":"bob","tags":[]}}"#
            ])
        #expect(
            try rows("SELECT -age + 2 * 3 AS x, age % 7 m, (age - 1) / 2 h FROM store.items WHERE meta().id = 'a'") == [
                #"{"h":15,"m":3,"x":-25}"#
            ])
        #expect(
            try rows("SELECT name || '!' AS s FROM store.items ORDER BY s") == [#"{"s":"Ann!"}"#, #"{"s":"bob!"}"#])
        #expect(
            try rows("SELECT name FROM store.items ORDER BY name COLLATE (UNICODE NOCASE) DESC") == [
                #"{"name":"bob"}"#, #"{"name":"Ann"}"#,
            ])
        #expect(
            try rows(
                "SELECT name FROM store.items WHERE age NOT BETWEEN 26 AND 40 AND name NOT IN ('x') AND tags[0] IS MISSING"
            ) == [#"{"name":"bob"}"#])
        #expect(
            try rows(
                "SELECT COUNT(*) AS n, SUM(age) total FROM store.items WHERE EVERY t IN tags SATISFIES t != 'z' END")
                == [#"{"n":2,"total":56}"#])
        #expect(
            try rows(
                "SELECT name FROM store.items WHERE upper(name) = 'BOB' OR contains(name, 'nn') ORDER BY name LIMIT 1 OFFSET 1"
            ) == [#"{"name":"bob"}"#])
        #expect(
            try rows("SELECT name FROM store.items WHERE ANY AND EVERY t IN tags SATISFIES t IN ['x', 'y'] END") == [
                #"{"name":"Ann"}"#
            ])
        #expect(
            try rows("SELECT TRUE AS t, FALSE f, NULL n, MISSING m, [1, 'two'] a, 1.5e2 d FROM store.items LIMIT 1")
                == [#"{"a":[1,"two"],"d":150.0,"f":false,"n":null,"t":true}"#])
        #expect(
            try rows("SELECT name FROM store.items /* comment */ WHERE nothing IS MISSING AND name = 'bob' -- tail")
                == [#"{"name":"bob"}"#])
        let q = try f.database.createQuery("SELECT name FROM store.items WHERE regexp_like(name, '^[a-z]+$')")
        #expect(try q.rows() == [#"{"name":"bob"}"#])
    }

    @Test func defaultCollectionNames() throws {
        let f = try fixture()
        let defaultCollection = try f.database.defaultCollection()
        try f.save(["d": #"{"k":1}"#], in: defaultCollection)
        for name in ["_", "_default", "_default._default", "q"] {
            #expect(try f.database.createQuery("SELECT k FROM \(name)").rows() == [#"{"k":1}"#], "\(name)")
        }
    }

    @Test func propertyPathsParse() throws {
        #expect(try PropertyPath.parse("a.b[0].c").jsonPath == "$.a.b[0].c")
        #expect(try PropertyPath.parse("a\\.b.c").jsonPath == #"$."a.b".c"#)
        #expect(try PropertyPath.parse("list[-1]").jsonPath == "$.list[#-1]")
        #expect(try PropertyPath.parse("odd key.x").jsonPath == #"$."odd key".x"#)
        for bad in ["", "a..b", ".a", "a.", "a[x]"] {
            #expect(throws: QuireError.self, "\(bad)") { try PropertyPath.parse(bad) }
        }
    }
}

/// Deeply nested SQL++ overflowed the stack in the parser and the compiler (found by the
/// fuzz-query target, Tests/Fuzz): now it is invalidQuery. What the limits allow runs on a
/// 512 KiB stack in release builds (the fuzz target checks that); debug and sanitizer builds
/// use far larger frames, so here it runs on an 8 MiB thread.
@Suite struct SQLPPNestingTests {
    private func message(_ database: Database, _ text: String) -> String? {
        do {
            _ = try database.createQuery(text).execute()
            return nil
        } catch let error as QuireError {
            #expect(error.code == .invalidQuery, "\(error)")
            return error.message
        } catch {
            Issue.record("not a QuireError: \(error)")
            return nil
        }
    }

    @Test func nestingPastTheLimitIsAnError() throws {
        let f = try QueryFixture()
        let deep = 20_000
        let nested = [
            String(repeating: "(", count: deep) + "1" + String(repeating: ")", count: deep),
            String(repeating: "NOT ", count: deep) + "TRUE",
            String(repeating: "- ", count: deep) + "age",
            String(repeating: "[", count: deep) + String(repeating: "]", count: deep),
            String(repeating: "upper(", count: deep) + "name" + String(repeating: ")", count: deep),
            String(repeating: "(", count: 64) + "1" + String(repeating: ")", count: 64),
        ]
        for expression in nested {
            let text = "SELECT \(expression) FROM store.items"
            #expect(
                message(f.database, text)?.contains("the expression nests more than 64 levels") == true,
                "\(text.prefix(40))")
        }
        let chain = (0...128).map { "age = \($0)" }.joined(separator: " OR ")
        #expect(
            message(f.database, "SELECT name FROM store.items WHERE \(chain)")?.hasSuffix(
                "the expression is more than 128 levels deep") == true)
        let sum = (0...128).map(String.init).joined(separator: " + ")
        #expect(message(f.database, "SELECT \(sum) FROM store.items")?.contains("is more than 128 levels deep") == true)
        #expect(
            message(
                f.database,
                "SELECT name FROM store.items WHERE age IN (\((0..<10_000).map(String.init).joined(separator: ", ")))")
                == nil)
    }

    @Test func nestingUpToTheLimitRuns() throws {
        let f = try QueryFixture()
        try f.save(["a": #"{"name":"Ann","age":31}"#])
        let queries = [
            "SELECT " + String(repeating: "(", count: 63) + "age" + String(repeating: ")", count: 63)
                + " AS a FROM store.items",
            "SELECT " + String(repeating: "upper(", count: 63) + "name" + String(repeating: ")", count: 63)
                + " AS a FROM store.items",
            "SELECT name AS a FROM store.items WHERE " + String(repeating: "NOT ", count: 62) + "(age = 1)",
            "SELECT name AS a FROM store.items WHERE " + (0..<128).map { "age = \($0)" }.joined(separator: " OR "),
        ]
        let database = f.database
        // Written by the thread before it signals, read here after the wait.
        final class Outcomes: @unchecked Sendable { var list: [String] = [] }
        let outcomes = Outcomes()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for text in queries {
                do {
                    let rows = try database.createQuery(text).execute().allResults()
                    outcomes.list.append(rows.map { $0.toJSON() }.joined(separator: ","))
                } catch {
                    outcomes.list.append("error: \(error)")
                }
            }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        #expect(outcomes.list.count == 4)
        #expect(outcomes.list.first == #"{"a":31}"#)
        // SQLite's own parser takes about 100 nested parentheses in the SQL these compile to,
        // and says so: a clean invalidQuery, never a crash.
        for (outcome, expected) in zip(outcomes.list.dropFirst(), [#"{"a":"ANN"}"#, #"{"a":"Ann"}"#, #"{"a":"Ann"}"#]) {
            #expect(
                outcome == expected
                    || outcome.hasPrefix("error: Quire invalidQuery (23): query failed: parser stack overflow"),
                "\(outcome.prefix(200))")
        }
    }
}
