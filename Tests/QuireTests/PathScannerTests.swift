import Foundation
import Testing

@testable import Quire

/// `quire_extract` and `quire_type` (`quire_path.c`) give SQLite's `json_extract` and
/// `json_type` answers, value, SQL type and JSON subtype alike, for every body and path.
@Suite struct PathScannerTests {
    /// Bodies with what the scanner skips or hands back to SQLite: escapes, reals, long
    /// integers, white space, duplicate keys, keys with dots and quotes, nesting.
    static let bodies = [
        #"{"a":"x\"y\u00e9\ud83d\ude00","b":[1, 2 ,{"c" : true}],"n":12345678901234567890,"m":-9223372036854775808,"k":-0,"r":1.5e3,"z":null,"q\"":1,"a.b":2,"e":{},"f":[],"g":"","u":"\u0000x","d":1,"d":2,"w":-12}"#,
        #"{"contact":{"address":{"state":"WA","zip":"98101"},"emails":["a@x.org","b@x.org"]},"geo":{"lat":46.252368,"lon":-6.1},"likes":[],"name":{"first":"Ann","last":"Lee"}}"#,
        #" { "a" : { "b" : [ 1 , 2 ] } , "s" : "tab\tnew\nline" } "#,
        "[1,2,3]", #""s""#, "12", "-1.25", "true", "null", "{}", "[]",
    ]

    static let paths = [
        "$", "$.a", "$.b", "$.b[2]", "$.b[2].c", "$.b[#-1]", "$.b[#-3]", "$.b[#-4]", "$.b[#]", "$.b[#-0]", "$.n",
        "$.m", "$.k", "$.r", "$.z", #"$."q\""#, #"$."a.b""#, "$.a.b", "$.a.b[1]", "$.e", "$.f", "$.g", "$.u", "$.d",
        "$.w", "$.s", "$[0]", "$[#-1]", "$[3]", "$[00]", "$.b[1][0]", "$.contact.address.state", "$.contact.emails[1]",
        "$.contact.emails[5]", "$.contact.address", "$.geo.lat", "$.geo.lon", "$.geo", "$.likes", "$.likes[0]",
        #"$."name".last"#, "$.name.last.x", "$.nope", "$.x[",
    ]

    @Test func answersAsSQLiteDoes() throws {
        let f = try QueryFixture()
        try f.database.read { connection in
            for body in Self.bodies {
                for path in Self.paths {
                    let answers = try connection.query(
                        """
                        SELECT quire_extract(?1, ?2) IS json_extract(?1, ?2),
                            typeof(quire_extract(?1, ?2)) = typeof(json_extract(?1, ?2)),
                            quire_type(?1, ?2) IS json_type(?1, ?2),
                            json_array(quire_extract(?1, ?2)) = json_array(json_extract(?1, ?2))
                        """, [.text(body), .text(path)]
                    ) { row in (0..<4).map { row.int64(at: $0) } }
                    #expect(answers == [[1, 1, 1, 1]], "body \(body), path \(path)")
                }
            }
        }
    }

    /// Over a body in its stored form (`quire_body.h`: identifier keys bare), every answer is
    /// the one SQLite gives over the JSON, the containers handed back included.
    @Test func answersOverAStoredBodyAsSQLiteDoesOverItsJSON() throws {
        let f = try QueryFixture()
        try f.database.read { connection in
            var bare: Int64 = 0
            for body in Self.bodies {
                bare += try connection.scalarInt("SELECT quire_body_pack(?1) != ?1", [.text(body)]) ?? 0
                for path in Self.paths {
                    let answers = try connection.query(
                        """
                        SELECT quire_extract(quire_body_pack(?1), ?2) IS json_extract(?1, ?2),
                            typeof(quire_extract(quire_body_pack(?1), ?2)) = typeof(json_extract(?1, ?2)),
                            quire_type(quire_body_pack(?1), ?2) IS json_type(?1, ?2),
                            json_array(quire_extract(quire_body_pack(?1), ?2)) = json_array(json_extract(?1, ?2)),
                            quire_result(quire_body_pack(?1), ?2) IS quire_result(?1, ?2)
                        """, [.text(body), .text(path)]
                    ) { row in (0..<5).map { row.int64(at: $0) } }
                    #expect(answers == [[1, 1, 1, 1, 1]], "body \(body), path \(path)")
                }
            }
            #expect(bare == 2)
        }
    }

    /// A path is read into steps once per statement and kept while its argument stays the same
    /// (`sqlite3_set_auxdata`); a path that changes from row to row must be read again at each
    /// row. One statement reads every body with every path, taken from the rows of `json_each`.
    @Test func aPathThatChangesFromRowToRowIsReadAgain() throws {
        let f = try QueryFixture()
        let pairs = Self.bodies.flatMap { body in Self.paths.map { [body, $0] } }
        let pairsJSON = String(decoding: try JSONSerialization.data(withJSONObject: pairs), as: UTF8.self)
        try f.database.read { connection in
            let rows = try connection.query(
                """
                SELECT count(*), sum(quire_extract(b, p) IS json_extract(b, p) AND quire_type(b, p) IS json_type(b, p))
                FROM (SELECT json_extract(value, '$[0]') AS b, json_extract(value, '$[1]') AS p FROM json_each(?1))
                """, [.text(pairsJSON)]
            ) { row in [row.int64(at: 0), row.int64(at: 1)] }
            #expect(rows == [[Int64(pairs.count), Int64(pairs.count)]])
        }
    }

    @Test func badPathsFailAsSQLiteDoes() throws {
        let f = try QueryFixture()
        try f.database.read { connection in
            for path in ["$.", "abc", "$..a", "$x"] {
                #expect(throws: QuireError.self, "path \(path)") {
                    try connection.scalarText("SELECT quire_extract('{\"a\":1}', ?)", [.text(path)])
                }
                #expect(throws: QuireError.self, "path \(path)") {
                    try connection.scalarText("SELECT quire_type('{\"a\":1}', ?)", [.text(path)])
                }
            }
        }
    }

    @Test func queriesAndIndexesReadBodiesWithTheScanner() throws {
        let f = try QueryFixture()
        try f.save(["d1": #"{"n":1.5,"s":"a\"b","o":{"k":[1,2]}}"#, "d2": #"{"n":2,"s":"c"}"#])
        let query = try f.database.createQuery("SELECT meta().id, n, s, o FROM store.items WHERE n > 1 ORDER BY n")
        #expect(try query.explain().contains("quire_extract(body, '$.n')"))
        #expect(
            try query.rows() == [#"{"id":"d1","n":1.5,"o":{"k":[1,2]},"s":"a\"b"}"#, #"{"id":"d2","n":2,"s":"c"}"#])
    }
}
