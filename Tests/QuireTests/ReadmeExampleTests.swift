import Foundation
import Quire
import Testing

/// The README's first look and the articles' first examples, as code that must keep compiling
/// and working. Quire is imported as an app imports it (not `@testable`).
@Suite struct ReadmeExampleTests {
    @Test func theFirstLookWorks() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "app", config: DatabaseConfiguration(directory: directory.path))
        let people = try database.createCollection(name: "people", scope: "crm")

        let ada = MutableDocument(id: "ada")
            .setString("Ada", forKey: "name")
            .setInt(36, forKey: "age")
            .setDate(Date(), forKey: "joined")
        try people.save(document: ada)

        let stored = try #require(try people.document(id: "ada"))
        #expect(stored.string(forKey: "name") == "Ada")
        #expect(stored["address"]["city"].string == nil)

        let edit = stored.toMutable()
        edit.setInt(37, forKey: "age")
        #expect(try people.save(document: edit, concurrencyControl: .failOnConflict))

        try database.inBatch {
            try people.save(document: MutableDocument(id: "b", data: ["name": "Babbage"]))
            try people.delete(document: try #require(try people.document(id: "ada")))
        }
        try people.setDocumentExpiration(id: "b", expiration: Date().addingTimeInterval(3600))
        let token = people.addChangeListener { _ in }
        token.remove()
        #expect(people.count == 1)
    }

    /// The handles article's first example (Quire.docc/HandlesAndThreads.md), then the rest of
    /// what that article names, all through public API: tags, a blockade, close with a
    /// callback, purging free handles.
    @Test func theHandlesArticleExampleWorks() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("raw.sqlite3")
        let database = Database(path: path)
        #expect(!database.isOpened)  // opens nothing yet
        #expect(database.canOpen)
        database.tag = 7_000_001
        let same = try Database(tag: 7_000_001)
        try database.defaultCollection().save(document: MutableDocument(id: "a", data: ["n": 1]))
        #expect(try same.defaultCollection().document(id: "a")?.int(forKey: "n") == 1)
        database.blockade()
        database.unblockade()
        try database.close { try FileManager.default.removeItem(atPath: path) }
        Database.purgeFreeHandlesInAllDatabases()
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

/// The query example of Quire.docc/QueriesAndIndexes.md, as code that must keep working.
@Suite struct ReadmeQueryExampleTests {
    @Test func theQueryExampleWorks() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "app", config: DatabaseConfiguration(directory: directory.path))
        let people = try database.createCollection(name: "people", scope: "crm")
        for (id, state) in [("a", "WA"), ("b", "OR"), ("c", "WA")] {
            try people.save(
                document: MutableDocument(
                    id: id, data: ["name": id.uppercased(), "contact": ["address": ["state": state]]]))
        }
        let query =
            QueryBuilder
            .select(SelectResult.expression(Meta.id), SelectResult.property("name"))
            .from(DataSource.collection(people))
            .where(Expression.property("contact.address.state").equalTo(Expression.string("WA")))
            .orderBy(Ordering.property("name").ascending())
        try people.createIndex(withName: "byState", config: ValueIndexConfiguration(["contact.address.state"]))
        #expect(try query.explain().contains("byState"))
        let same = try database.createQuery(
            "SELECT meta().id, name FROM crm.people WHERE contact.address.state = 'WA' ORDER BY name")
        let built = try query.execute().map { $0.toJSON() }
        let parsed = try same.execute().map { $0.toJSON() }
        #expect(built == parsed)
        #expect(built.count == 2)
    }
}
