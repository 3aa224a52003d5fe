import Foundation
import Testing

@testable import Quire

/// UNNEST and array indexes, following LiteCore's c4ArrayIndexTest.cc on its profiles.
@Suite struct UnnestTests {
    private static let profiles: [String: String] = [
        "0000001": #"""
        {"pid":"p-0001","contacts":[{"address":{"city":"San Pedro","state":"CA"},"emails":["lue.laserna@nosql-matters.org","laserna@nosql-matters.org"],"phones":[{"numbers":["310-8268551","310-7618427"],"preferred":false,"type":"home"},{"numbers":["310-9601308"],"preferred":true,"type":"mobile"}],"type":"primary"},{"address":{"city":"San Pedro","state":"CA"},"emails":["Lue@email.com","Laserna@email.com"],"phones":[{"numbers":["310-6653153"],"preferred":false,"type":"home"},{"numbers":["310-4833623"],"preferred":true,"type":"mobile"}],"type":"secondary"}],"likes":["chatting"]}
        """#,
        "0000002": #"""
        {"pid":"p-0002","contacts":[{"address":{"city":"Burns","state":"KS"},"emails":["jasper.grebel@nosql-matters.org"],"phones":[{"numbers":["316-2417120","316-2767391"],"preferred":false,"type":"home"},{"numbers":["316-8833161"],"preferred":true,"type":"mobile"}],"type":"primary"},{"address":{"city":"Burns","state":"KS"},"emails":["Jasper@email.com","Grebel@email.com"],"phones":[{"numbers":["316-9487549"],"preferred":true,"type":"home"},{"numbers":["316-4737548"],"preferred":false,"type":"mobile"}],"type":"secondary"}],"likes":["shopping"]}
        """#,
        "0000003": #"""
        {"pid":"p-0003","contacts":[{"address":{"city":"Tacoma","state":"WA"},"emails":["kandra@nosql-matters.org"],"phones":[{"numbers":["253-0405964"],"preferred":false,"type":"home"},{"numbers":["253-7421842"],"preferred":true,"type":"mobile"}],"type":"primary"}],"likes":["swimming","chatting"]}
        """#,
    ]

    private func fixture() throws -> QueryFixture {
        let f = try QueryFixture(collection: "profiles", scope: "_default")
        try f.save(Self.profiles)
        return f
    }

    private func rows(_ f: QueryFixture, _ sql: String) throws -> [String] {
        try f.database.createQuery(sql).rows()
    }

    @Test func unnestGivesARowPerElement() throws {
        let f = try fixture()
        let sql = "SELECT p.pid, c.address.city FROM profiles AS p UNNEST p.contacts AS c WHERE c.address.state = 'CA'"
        #expect(try rows(f, sql) == [#"{"city":"San Pedro","pid":"p-0001"}"#, #"{"city":"San Pedro","pid":"p-0001"}"#])
    }

    @Test func scalarElementsNestedUnnestAndGroupBy() throws {
        let f = try fixture()
        #expect(
            try rows(
                f,
                "SELECT likes, count(1) AS n FROM profiles AS p UNNEST p.likes AS likes GROUP BY likes ORDER BY likes")
                == [#"{"likes":"chatting","n":2}"#, #"{"likes":"shopping","n":1}"#, #"{"likes":"swimming","n":1}"#])
        #expect(
            try rows(
                f,
                "SELECT p.pid, ph.type FROM profiles AS p UNNEST p.contacts AS c UNNEST c.phones AS ph WHERE ph.preferred = true ORDER BY p.pid, ph.type"
            ) == [
                #"{"pid":"p-0001","type":"mobile"}"#, #"{"pid":"p-0001","type":"mobile"}"#,
                #"{"pid":"p-0002","type":"home"}"#, #"{"pid":"p-0002","type":"mobile"}"#,
                #"{"pid":"p-0003","type":"mobile"}"#,
            ])
    }

    @Test func unaliasedUnnestIsNamedAfterTheArray() throws {
        let f = try fixture()
        #expect(
            try rows(
                f, "SELECT profiles.pid FROM profiles UNNEST profiles.contacts WHERE contacts.address.state = 'WA'")
                == [#"{"pid":"p-0003"}"#])
    }

    @Test func unnestTakesOnlyAPropertyOfASource() throws {
        let f = try fixture()
        for sql in [
            "SELECT p.pid FROM profiles AS p UNNEST ['a', 'b']",
            "SELECT p.pid FROM profiles AS p UNNEST contacts AS c",
            "SELECT meta(c).id FROM profiles AS p UNNEST p.contacts AS c",
            "SELECT pid FROM profiles AS p UNNEST p.contacts AS c",
        ] {
            #expect(throws: QuireError.self, "\(sql)") { try f.database.createQuery(sql).execute() }
        }
    }

    @Test func unnestStaysAPropertyName() throws {
        let f = try QueryFixture(collection: "c", scope: "_default")
        try f.save(["a": #"{"unnest": 3}"#])
        #expect(try rows(f, "SELECT unnest FROM c WHERE unnest = 3") == [#"{"unnest":3}"#])
        #expect(try rows(f, "SELECT x.unnest FROM c AS x") == [#"{"unnest":3}"#])
    }

    @Test func elementsOfAMissingEmptyOrScalarArray() throws {
        let f = try QueryFixture(collection: "c", scope: "_default")
        try f.save(["a": #"{"k": 1}"#, "b": #"{"k": 2, "xs": []}"#, "c": #"{"k": 3, "xs": "foo"}"#])
        #expect(try rows(f, "SELECT d.k, x FROM c AS d UNNEST d.xs AS x") == [#"{"k":3,"x":"foo"}"#])
    }

    @Test func anArrayIndexServesTheUnnestAndFollowsWrites() throws {
        let f = try fixture()
        let query = try f.database.createQuery(
            "SELECT p.pid FROM profiles AS p UNNEST p.contacts AS c WHERE c.address.state = 'WA'")
        #expect(try query.explain().contains("json_each"))
        try f.collection.createIndex(
            withName: "contacts", config: ArrayIndexConfiguration(path: "contacts", expressions: ["address.state"]))
        #expect(try query.explain().contains("USING INDEX \(f.collection.table)_ai_contacts_"))
        #expect(try query.rows() == [#"{"pid":"p-0003"}"#])
        try f.save(["0000004": #"{"pid":"p-0004","contacts":[{"address":{"state":"WA"}}]}"#])
        try f.collection.delete(document: try #require(try f.collection.document(id: "0000003")))
        #expect(try query.rows() == [#"{"pid":"p-0004"}"#])
        #expect(try f.collection.index(withName: "contacts")?.arrayPath == "contacts")
        try f.collection.deleteIndex(forName: "contacts")
        #expect(try query.explain().contains("json_each"))
        #expect(try query.rows() == [#"{"pid":"p-0004"}"#])
    }

    @Test func emptyArrayIndexExpressionsAreRefused() throws {
        let f = try fixture()
        for expressions in [[], [""]] {
            #expect(throws: QuireError.self) {
                try f.collection.createIndex(
                    withName: "contacts", config: ArrayIndexConfiguration(path: "contacts", expressions: expressions))
            }
        }
        #expect(try f.collection.indexes().isEmpty)
    }

    @Test func deletingTheCollectionDropsItsElementTables() throws {
        let f = try fixture()
        try f.collection.createIndex(
            withName: "phones", config: ArrayIndexConfiguration(path: "contacts[].phones", expressions: ["type"]))
        func elementTables() throws -> Int64 {
            try f.database.read { connection in
                try connection.scalarInt(
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name LIKE ?",
                    [.text("\(f.collection.table)_ua_%")]) ?? -1
            }
        }
        #expect(try elementTables() == 2)
        try f.database.deleteCollection(name: "profiles", scope: "_default")
        #expect(try elementTables() == 0)
    }
}
