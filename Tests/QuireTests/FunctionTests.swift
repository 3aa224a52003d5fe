import Foundation
import Testing

@testable import Quire

@Suite struct FunctionTests {
    private func fixture() throws -> QueryFixture {
        let f = try QueryFixture()
        try f.save([
            "a": #"{"s":"  Élan  ","n":-2.75,"i":7,"d":"2026-01-02T03:04:05.678Z","m":1767322800000}"#,
            "b": #"{"s":"elan","n":4,"i":2,"d":"2026-01-02T05:04:05+02:00"}"#,
            "c": #"{"s":"Eric","n":null}"#,
        ])
        return f
    }

    /// The value of one expression for document `id`.
    private func value(_ f: QueryFixture, _ expression: any ExpressionProtocol, id: String = "a") throws -> JSONValue? {
        let query = QueryBuilder.select(SelectResult.expression(expression)).from(DataSource.collection(f.collection))
            .where(Meta.id.equalTo(Expression.string(id)))
        return try #require(try query.execute().next()).jsonValue(at: 0)
    }

    @Test func mathFunctions() throws {
        let f = try fixture()
        let n = Expression.property("n")
        let i = Expression.property("i")
        #expect(try value(f, Function.abs(n)) == .double(2.75))
        #expect(try value(f, Function.ceil(n)) == .double(-2))
        #expect(try value(f, Function.floor(n)) == .double(-3))
        #expect(try value(f, Function.round(n)) == .double(-3))
        #expect(try value(f, Function.round(n, digits: Expression.int(1))) == .double(-2.8))
        #expect(try value(f, Function.trunc(n)) == .double(-2))
        #expect(try value(f, Function.trunc(Expression.double(2.756), digits: Expression.int(2))) == .double(2.75))
        #expect(try value(f, Function.sign(n)) == .int(-1))
        #expect(try value(f, Function.power(base: i, exponent: Expression.int(2))) == .double(49))
        #expect(try value(f, Function.sqrt(Expression.int(16))) == .double(4))
        #expect(try value(f, Function.log(Expression.int(100))) == .double(2))
        #expect(try value(f, Function.ln(Function.e())) == .double(1))
        #expect(try value(f, Function.exp(Expression.int(0))) == .double(1))
        #expect(try value(f, Function.degrees(Function.pi())) == .double(180))
        #expect(try value(f, Function.radians(Expression.int(180))) == .double(Double.pi))
        #expect(try value(f, Function.sin(Expression.int(0))) == .double(0))
        #expect(try value(f, Function.cos(Expression.int(0))) == .double(1))
        #expect(try value(f, Function.tan(Expression.int(0))) == .double(0))
        #expect(try value(f, Function.asin(Expression.int(1))) == .double(Double.pi / 2))
        #expect(try value(f, Function.acos(Expression.int(1))) == .double(0))
        #expect(try value(f, Function.atan(Expression.int(0))) == .double(0))
        #expect(try value(f, Function.atan2(y: Expression.int(1), x: Expression.int(1))) == .double(Double.pi / 4))
        #expect(try value(f, i.divide(Expression.int(2))) == .int(3))
        #expect(try value(f, i.divide(Expression.double(2))) == .double(3.5))
        #expect(try value(f, Function.abs(n), id: "c") == .null)
        #expect(try value(f, Function.abs(Expression.property("none")), id: "c") == nil)
    }

    @Test func stringFunctions() throws {
        let f = try fixture()
        let s = Expression.property("s")
        #expect(try value(f, Function.trim(s)) == "Élan")
        #expect(try value(f, Function.ltrim(s)) == "Élan  ")
        #expect(try value(f, Function.rtrim(s)) == "  Élan")
        #expect(try value(f, Function.lower(s)) == "  élan  ")
        #expect(try value(f, Function.upper(Function.trim(s))) == "ÉLAN")
        #expect(try value(f, Function.length(s)) == .int(8))
        #expect(try value(f, Function.contains(s, substring: Expression.string("la"))) == .bool(true))
        #expect(try value(f, Function.contains(s, substring: Expression.string("LA"))) == .bool(false))
        #expect(try value(f, Function.upper(Expression.property("n"))) == .null)
    }

    @Test func dateFunctions() throws {
        let f = try fixture()
        let d = Expression.property("d")
        #expect(try value(f, Function.stringToMillis(d)) == .int(1_767_323_045_678))
        #expect(try value(f, Function.stringToMillis(d), id: "b") == .int(1_767_323_045_000))
        #expect(try value(f, Function.stringToUTC(d), id: "b") == "2026-01-02T03:04:05Z")
        #expect(try value(f, Function.millisToUTC(Expression.property("m"))) == "2026-01-02T03:00:00Z")
        #expect(try value(f, Function.millisToUTC(Expression.int64(1_767_323_045_678))) == "2026-01-02T03:04:05.678Z")
        #expect(try value(f, Function.stringToMillis(Expression.string("not a date"))) == .null)
        let local = try #require(try value(f, Function.millisToString(Expression.property("m")))?.stringValue)
        #expect(ISO8601.date(from: local) == Date(timeIntervalSince1970: 1_767_322_800))
    }

    @Test func collationIgnoresCaseAndAccents() throws {
        let f = try fixture()
        func ids(_ condition: any ExpressionProtocol) throws -> [String] {
            try QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.collection(f.collection))
                .where(condition).orderBy(Ordering.expression(Meta.id)).execute().allResults().compactMap {
                    $0.string(at: 0)
                }
        }
        let trimmed = Function.trim(Expression.property("s"))
        let elan = Expression.string("elan")
        #expect(try ids(trimmed.equalTo(elan)) == ["b"])
        #expect(try ids(trimmed.collate(Collation.unicode().ignoreCase(true)).equalTo(elan)) == ["b"])
        #expect(try ids(trimmed.collate(Collation.unicode().ignoreAccents(true)).equalTo(elan)) == ["b"])
        #expect(
            try ids(trimmed.collate(Collation.unicode().ignoreCase(true).ignoreAccents(true)).equalTo(elan)) == [
                "a", "b",
            ])
        #expect(
            try ids(trimmed.collate(Collation.ascii().ignoreCase(true)).equalTo(Expression.string("ERIC"))) == ["c"])
        #expect(
            try ids(
                trimmed.collate(Collation.unicode().ignoreCase(true).ignoreAccents(true)).like(Expression.string("EL%"))
            ) == ["a", "b"])
        #expect(try ids(trimmed.collate(Collation.ascii()).like(Expression.string("e%"))) == ["b"])
        // Without a collation LIKE is case-sensitive (LiteCore c4QueryTest "C4Query LIKE").
        #expect(try ids(trimmed.like(Expression.string("e%"))) == ["b"])
        let ordered = try QueryBuilder.select(SelectResult.expression(Meta.id)).from(
            DataSource.collection(f.collection)
        )
        .orderBy(Ordering.expression(trimmed.collate(Collation.unicode())), Ordering.expression(Meta.id))
        .execute().allResults().compactMap { $0.string(at: 0) }
        // Unicode order: e before É (accent), both before Eric (base letters).
        #expect(ordered == ["b", "a", "c"])
    }

    @Test func unicodeCollatorOrders() {
        #expect(UnicodeCollator.compare("a", "B", ignoreCase: false, ignoreAccents: false) < 0)
        #expect(UnicodeCollator.compare("a", "A", ignoreCase: false, ignoreAccents: false) < 0)
        #expect(UnicodeCollator.compare("a", "A", ignoreCase: true, ignoreAccents: false) == 0)
        #expect(UnicodeCollator.compare("é", "e", ignoreCase: false, ignoreAccents: true) == 0)
        #expect(UnicodeCollator.compare("é", "f", ignoreCase: false, ignoreAccents: false) < 0)
        #expect(UnicodeCollator.compare("e\u{301}", "\u{e9}", ignoreCase: false, ignoreAccents: false) == 0)
        #expect(UnicodeCollator.like("Crème brûlée", "%BRULEE", ignoreCase: true, ignoreAccents: true))
        #expect(!UnicodeCollator.like("Crème", "cr_me", ignoreCase: false, ignoreAccents: true))
        #expect(UnicodeCollator.like("100%", "100\\%", ignoreCase: false, ignoreAccents: false))
    }

    @Test func regexErrorsAreInvalidQuery() throws {
        let f = try fixture()
        let query = QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.collection(f.collection))
            .where(Expression.property("s").regex(Expression.string("(")))
        #expect { try query.execute() } throws: { ($0 as? QuireError)?.code == .invalidQuery }
    }
}
