import Foundation
import Testing

@testable import Quire

@Suite struct ValueIndexTests {
    private func fixture() throws -> QueryFixture {
        let f = try QueryFixture()
        var documents: [String: String] = [:]
        for number in 0..<200 {
            let state = ["CA", "NY", "TX", "WA"][number % 4]
            let type = number % 3 == 0 ? "hotel" : "inn"
            documents[String(format: "d%03d", number)] =
                #"{"type":"\#(type)","rank":\#(number),"contact":{"address":{"state":"\#(state)"}}}"#
        }
        try f.save(documents)
        return f
    }

    private func byState(_ f: QueryFixture) -> Query {
        QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.collection(f.collection))
            .where(Expression.property("contact.address.state").equalTo(Expression.string("CA")))
    }

    /// The SQL SQLite keeps for an index.
    private func indexSQL(_ f: QueryFixture, _ name: String) throws -> String? {
        try f.database.read { connection in
            try connection.scalarText(
                "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?",
                [.text(IndexCatalog.valueIndexName(table: f.collection.table, name: name))])
        }
    }

    @Test func queriesUseTheIndexWithTheSameExpressionText() throws {
        let f = try fixture()
        let query = byState(f)
        #expect(try !query.explain().contains("USING INDEX"))
        try f.collection.createIndex(withName: "byState", config: ValueIndexConfiguration(["contact.address.state"]))
        let explanation = try query.explain()
        #expect(explanation.contains("SEARCH s0 USING INDEX \(f.collection.table)_vi_byState_"))
        let sql = try #require(try indexSQL(f, "byState"))
        let indexed = "quire_extract(body, '$.contact.address.state')"
        #expect(sql.contains("(\(indexed)) WHERE flags & 1 = 0"))
        #expect(explanation.contains("WHERE flags & 1 = 0 AND"))
        #expect(explanation.contains("(\(indexed) = 'CA')"))
        #expect(try query.rows().count == 50)
        // The SQL++ form of the same query uses it too, and so does ORDER BY.
        let sqlpp = try f.database.createQuery("SELECT meta().id FROM store.items WHERE contact.address.state = 'CA'")
        #expect(try sqlpp.explain().contains("USING INDEX \(f.collection.table)_vi_byState_"))
        let ordered = try f.database.createQuery(
            "SELECT meta().id FROM store.items WHERE contact.address.state > 'A' ORDER BY contact.address.state")
        let plan = try ordered.explain()
        #expect(plan.contains("USING INDEX") && !plan.contains("TEMP B-TREE"))
    }

    @Test func partialIndexesNeedTheirConditionInTheQuery() throws {
        let f = try fixture()
        try f.collection.createIndex(
            withName: "hotelsByRank", config: ValueIndexConfiguration(["rank"], where: "type = 'hotel'"))
        let sql = try #require(try indexSQL(f, "hotelsByRank"))
        #expect(sql.hasSuffix("WHERE flags & 1 = 0 AND (quire_extract(body, '$.type') = 'hotel')"))
        let withCondition = try f.database.createQuery(
            "SELECT meta().id FROM store.items WHERE type = 'hotel' AND rank < 10 ORDER BY rank")
        #expect(try withCondition.explain().contains("USING INDEX \(f.collection.table)_vi_hotelsByRank_"))
        #expect(
            try withCondition.rows() == [#"{"id":"d000"}"#, #"{"id":"d003"}"#, #"{"id":"d006"}"#, #"{"id":"d009"}"#])
        let without = try f.database.createQuery("SELECT meta().id FROM store.items WHERE rank < 10")
        #expect(try !without.explain().contains("hotelsByRank"))
    }

    @Test func indexesAreListedReplacedDeletedAndKeptAcrossReopen() throws {
        let f = try fixture()
        let config = ValueIndexConfiguration(["contact.address.state"])
        try f.collection.createIndex(withName: "byState", config: config)
        try f.collection.createIndex(withName: "byRank", config: ValueIndexConfiguration(["rank", "type"]))
        #expect(try f.collection.indexes() == ["byRank", "byState"])
        let original = try indexSQL(f, "byState")
        try f.collection.createIndex(withName: "byState", config: config)
        #expect(try indexSQL(f, "byState") == original)
        try f.collection.createIndex(withName: "byState", config: ValueIndexConfiguration(["type"]))
        #expect(try indexSQL(f, "byState")?.contains("'$.type'") == true)
        #expect(try f.collection.index(withName: "byState")?.expressions == ["type"])
        #expect(try f.collection.index(withName: "nothing") == nil)
        try f.collection.deleteIndex(forName: "byRank")
        try f.collection.deleteIndex(forName: "byRank")
        #expect(try f.collection.indexes() == ["byState"])
        #expect(try indexSQL(f, "byRank") == nil)

        try f.collection.createIndex(withName: "byState", config: config)
        try f.database.close()
        let reopened = try Database(
            name: "q", config: DatabaseConfiguration(directory: f.directory.path, clock: f.clock))
        let collection = try #require(try reopened.collection(name: "items", scope: "store"))
        #expect(try collection.indexes() == ["byState"])
        #expect(try collection.index(withName: "byState")?.expressions == ["contact.address.state"])
        let query = QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.collection(collection))
            .where(Expression.property("contact.address.state").equalTo(Expression.string("NY")))
        #expect(try query.explain().contains("USING INDEX"))
        #expect(try query.rows().count == 50)
    }

    @Test func indexesMadeOnJSONExtractAreMadeAgainWhenTheFileIsUpgraded() throws {
        let f = try QueryFixture(name: "old")
        try f.save(["d1": #"{"state":"CA"}"#, "d2": #"{"state":"NY"}"#])
        try f.collection.createIndex(withName: "byState", config: ValueIndexConfiguration(["state"]))
        let index = IndexCatalog.valueIndexName(table: f.collection.table, name: "byState")
        let path = f.database.filePath
        try f.database.close()
        // As schema version 4 made it: on SQLite's json_extract, over bodies stored as JSON.
        let connection = try Connection(path: path, role: .writer, options: Connection.Options())
        try connection.execute(
            """
            UPDATE \(f.collection.table) SET body = quire_body(body);
            DROP INDEX \(index);
            CREATE INDEX \(index) ON \(f.collection.table) (json_extract(body, '$.state')) WHERE flags & 1 = 0;
            PRAGMA user_version = 4;
            """)
        connection.close()

        let reopened = try Database(
            name: "old", config: DatabaseConfiguration(directory: f.directory.path, clock: f.clock))
        let sql = try reopened.read {
            try $0.scalarText("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?", [.text(index)])
        }
        #expect(sql?.contains("quire_extract(body, '$.state')") == true)
        let query = try reopened.createQuery("SELECT meta().id FROM store.items WHERE state = 'CA'")
        #expect(try query.explain().contains("USING INDEX \(index)"))
        #expect(try query.rows() == [#"{"id":"d1"}"#])
    }

    @Test func indexedJoinsUseTheIndexOfTheJoinedSide() throws {
        let f = try fixture()
        let states = try f.database.createCollection(name: "states", scope: "store")
        try f.save(["CA": #"{"name":"California"}"#], in: states)
        try f.collection.createIndex(withName: "byState", config: ValueIndexConfiguration(["contact.address.state"]))
        let query = try f.database.createQuery(
            "SELECT meta(d).id FROM store.states s JOIN store.items d ON d.contact.address.state = meta(s).id")
        let explanation = try query.explain()
        #expect(explanation.contains("quire_extract(s1.body, '$.contact.address.state')"))
        #expect(explanation.contains("s1 USING INDEX \(f.collection.table)_vi_byState_"))
        #expect(try query.rows().count == 50)
    }

    @Test func badIndexesAreRejected() throws {
        let f = try fixture()
        #expect { try f.collection.createIndex(withName: "", config: ValueIndexConfiguration(["a"])) } throws: {
            ($0 as? QuireError)?.code == .invalidParameter
        }
        #expect { try f.collection.createIndex(withName: "x", config: ValueIndexConfiguration([])) } throws: {
            ($0 as? QuireError)?.code == .invalidParameter
        }
        #expect { try f.collection.createIndex(withName: "x", config: ValueIndexConfiguration(["a +"])) } throws: {
            ($0 as? QuireError)?.code == .invalidQuery
        }
        #expect { try f.collection.createIndex(withName: "x", config: ValueIndexConfiguration(["a = $p"])) } throws: {
            ($0 as? QuireError)?.message.contains("parameter") == true
        }
        #expect { try f.collection.createIndex(withName: "x", config: ValueIndexConfiguration(["count(a)"])) } throws: {
            ($0 as? QuireError)?.code == .invalidQuery
        }
        #expect(try f.collection.indexes() == [])
    }

    @Test func deletingTheCollectionDropsItsIndexes() throws {
        let f = try fixture()
        let other = try f.database.createCollection(name: "other", scope: "store")
        try other.createIndex(withName: "v", config: ValueIndexConfiguration(["a"]))
        try other.createIndex(withName: "t", config: FullTextIndexConfiguration(["a"]))
        let table = other.table
        try f.database.deleteCollection(name: "other", scope: "store")
        let leftovers = try f.database.read { connection in
            try connection.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name LIKE ?", [.text("\(table)%")])
        }
        #expect(leftovers == 0)
        let catalog = try f.database.read { connection in
            try connection.scalarInt("SELECT count(*) FROM quire_indexes WHERE collection_id = ?", [.integer(other.id)])
        }
        #expect(catalog == 0)
        #expect { try other.indexes() } throws: { ($0 as? QuireError)?.code == .notOpen }
    }
}
