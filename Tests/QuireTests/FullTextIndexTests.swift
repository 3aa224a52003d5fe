import Foundation
import Testing

@testable import Quire

@Suite struct FullTextIndexTests {
    private func fixture() throws -> QueryFixture {
        let f = try QueryFixture()
        try f.save([
            "a": #"{"title":"Running shoes","body":"The café near the park","kind":"post"}"#,
            "b": #"{"title":"A runner's diary","body":"Cafe culture, run run run","kind":"post"}"#,
            "c": #"{"title":"Gardening","body":"Roses and tulips","kind":"draft"}"#,
        ])
        return f
    }

    private func matches(_ f: QueryFixture, _ index: String, _ text: String) throws -> [String] {
        try QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.collection(f.collection))
            .where(FullTextFunction.match(index, query: text)).orderBy(Ordering.expression(Meta.id))
            .execute().allResults().compactMap { $0.string(at: 0) }
    }

    /// Rows in the FTS table itself, to show that the triggers (not only the query's join)
    /// keep it current.
    private func indexedRows(_ f: QueryFixture, _ index: String) throws -> Int64? {
        try f.database.read { connection in
            try connection.scalarInt(
                "SELECT count(*) FROM \(IndexCatalog.fullTextTableName(table: f.collection.table, name: index))")
        }
    }

    @Test func englishStemmingMatchesWordForms() throws {
        let f = try fixture()
        try f.collection.createIndex(withName: "stemmed", config: FullTextIndexConfiguration(["title", "body"]))
        try f.collection.createIndex(
            withName: "plain", config: FullTextIndexConfiguration(["title", "body"], language: nil))
        #expect(try matches(f, "stemmed", "run") == ["a", "b"])
        #expect(try matches(f, "plain", "run") == ["b"])
        #expect(try matches(f, "plain", "running") == ["a"])
        #expect(try matches(f, "stemmed", "gardens") == ["c"])
        #expect(try matches(f, "plain", "run*") == ["a", "b"])
        #expect(try matches(f, "stemmed", "roses AND tulips") == ["c"])
        #expect(try matches(f, "stemmed", "\"near the park\"") == ["a"])
        try f.collection.createIndex(withName: "none", config: FullTextIndexConfiguration(["title"], language: ""))
        #expect(try matches(f, "none", "run") == [])
    }

    @Test func accentsMatterUnlessIgnored() throws {
        let f = try fixture()
        try f.collection.createIndex(withName: "exact", config: FullTextIndexConfiguration(["body"]))
        try f.collection.createIndex(
            withName: "folded", config: FullTextIndexConfiguration(["body"], ignoreAccents: true))
        #expect(try matches(f, "exact", "café") == ["a"])
        #expect(try matches(f, "exact", "cafe") == ["b"])
        #expect(try matches(f, "folded", "cafe") == ["a", "b"])
        #expect(try matches(f, "folded", "CAFÉ") == ["a", "b"])
    }

    /// LiteCore's FTSTest "Query Full-Text Unsupported Language": the index is made, unstemmed.
    @Test func aLanguageWithoutAStemmerIndexesUnstemmed() throws {
        let f = try fixture()
        try f.collection.createIndex(
            withName: "tlh", config: FullTextIndexConfiguration(["title", "body"], language: "tlh"))
        #expect(try f.collection.indexes() == ["tlh"])
        #expect(try matches(f, "tlh", "run") == ["b"])
        #expect(try matches(f, "tlh", "running") == ["a"])
        #expect(try matches(f, "tlh", "the") == ["a"])
    }

    /// LiteCore's FTSTest "Query Full-Text Stop-words" and "... Stop-words In Target".
    @Test(
        .enabled(
            if: SnowballStemmers.isBuiltIn,
            "needs the Snowball trait: without it English stems with FTS5's porter tokenizer, which indexes stop words"
        ))
    func englishStopWordsAreNeitherIndexedNorRequired() throws {
        let f = try fixture()
        try f.save([
            "d": #"{"title":"Going on","body":"Onions for supper"}"#,
            "e": #"{"title":"Carry on","body":"Keep calm"}"#,
        ])
        try f.collection.createIndex(withName: "en", config: FullTextIndexConfiguration(["title", "body"]))
        try f.collection.createIndex(
            withName: "plain", config: FullTextIndexConfiguration(["title", "body"], language: nil))
        #expect(try matches(f, "en", "the park") == ["a"])
        #expect(try matches(f, "plain", "the park") == ["a"])
        #expect(try matches(f, "en", "the café is near") == ["a"])
        #expect(try matches(f, "plain", "the café is near") == [])
        #expect(try matches(f, "en", "the") == [])
        #expect(try matches(f, "plain", "the") == ["a"])
        // "on" is not indexed, but a prefix query keeps it and finds "onions".
        #expect(try matches(f, "en", "on*") == ["d"])
        #expect(try matches(f, "plain", "on*") == ["d", "e"])
        #expect(try matches(f, "en", "going AND on*") == ["d"])
        #expect(try matches(f, "en", "\"near the park\"") == ["a"])
    }

    /// With the `Snowball` trait, a Spanish index stems Spanish (Couchbase Lite's CollectionTest
    /// testCollectionIndex makes an "es" index).
    @Test(.enabled(if: SnowballStemmers.isBuiltIn, "needs the Snowball trait (libstemmer's Spanish stemmer)"))
    func aSnowballLanguageStemsWithTheTrait() throws {
        let f = try QueryFixture()
        try f.save(["e1": #"{"text":"Me gusta correr por la mañana"}"#])
        try f.collection.createIndex(withName: "es", config: FullTextIndexConfiguration(["text"], language: "es"))
        #expect(try matches(f, "es", "corriendo") == ["e1"])
    }

    /// Without the `Snowball` trait a language that needs it is refused, naming the trait,
    /// rather than indexed unstemmed; English stems with FTS5's porter tokenizer.
    @Test(.disabled(if: SnowballStemmers.isBuiltIn, "shows a build without the Snowball trait"))
    func aSnowballLanguageWithoutTheTraitIsRefused() throws {
        let f = try fixture()
        for language in ["es", "fr-CA", "german"] {
            let error = try #require(throws: QuireError.self) {
                try f.collection.createIndex(
                    withName: "text", config: FullTextIndexConfiguration(["title"], language: language))
            }
            #expect(error.code == .invalidParameter)
            #expect(error.message.contains("'Snowball'") && error.message.contains("'\(language)'"))
        }
        #expect(try f.collection.indexes() == [])
        try f.collection.createIndex(withName: "en", config: FullTextIndexConfiguration(["title"], language: "en"))
        #expect(try matches(f, "en", "run") == ["a"])
        #expect(FullTextIndexConfiguration(["title"]).language == "en")
    }

    /// A database whose full-text index stems with Snowball, opened by a build without the
    /// trait: writes to the collection are refused with an error that names the trait and the
    /// way out, not SQLite's bare "no such tokenizer"; with the trait the index works.
    @Test func anIndexMadeWithSnowballNamesTheTraitInABuildWithoutIt() throws {
        let directory = TemporaryDirectory("quire-snowball")
        let config = DatabaseConfiguration(directory: directory.path)
        do {
            let database = try Database(name: "made", config: config)
            let collection = try database.createCollection(name: "posts")
            try collection.createIndex(
                withName: "text", config: FullTextIndexConfiguration(["title"], language: nil))
            // What a build with the trait writes for an English index, whichever build runs this.
            let table = IndexCatalog.fullTextTableName(table: collection.table, name: "text")
            try database.write { connection in
                try connection.execute("PRAGMA writable_schema = ON")
                try connection.execute(
                    "UPDATE sqlite_master SET sql = replace(sql, 'unicode61', '\(SnowballStemmers.tokenizerName) english stopwords en') WHERE name = '\(table)'"
                )
                try connection.execute("PRAGMA writable_schema = OFF")
            }
            try database.close()
        }
        let database = try Database(name: "made", config: config)
        let posts = try #require(try database.collection(name: "posts"))
        let save = { try posts.save(document: MutableDocument(id: "a", data: ["title": "Running shoes"])) }
        if SnowballStemmers.isBuiltIn {
            try save()
            let found = try QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.collection(posts))
                .where(FullTextFunction.match("text", query: "run")).execute().allResults()
            #expect(found.compactMap { $0.string(at: 0) } == ["a"])
        } else {
            let error = try #require(throws: QuireError.self) { try save() }
            #expect(error.code == .unsupported)
            #expect(error.message.contains("package trait 'Snowball'") && error.message.contains("create it again"))
        }
    }

    /// LiteCore's rank(): a phrase's hits in the row over its hits in all rows, summed.
    @Test func rankIsLiteCoresRelevance() throws {
        let f = try fixture()
        try f.collection.createIndex(withName: "text", config: FullTextIndexConfiguration(["title", "body"]))
        let query = try f.database.createQuery(
            "SELECT meta().id AS id, RANK(text) AS r FROM store.items WHERE MATCH(text, 'run OR park') ORDER BY RANK(text) DESC, meta().id"
        )
        let rows = try query.execute().allResults()
        // Per column: "run" has one hit in the titles (a's "Running"; "runner" stems apart)
        // and three in the bodies (b's), "park" one in the bodies (a's).
        #expect(rows.map { $0.string(forKey: "id") } == ["a", "b"])
        #expect(rows.map { $0.double(forKey: "r") } == [1.0 + 1.0, 3.0 / 3.0])
    }

    /// An index made before stop words and LiteCore's rank names SQLite's porter tokenizer in
    /// its table's definition and keeps it: it goes on matching and ranking as it did.
    @Test func anIndexWithTheEarlierPorterTokenizerKeepsWorking() throws {
        let f = try fixture()
        try f.collection.createIndex(withName: "text", config: FullTextIndexConfiguration(["body"]))
        let fts = IndexCatalog.fullTextTableName(table: f.collection.table, name: "text")
        try f.database.write { connection in
            try connection.execute(
                """
                DROP TABLE \(fts);
                CREATE VIRTUAL TABLE \(fts) USING fts5(c0, tokenize = 'porter unicode61 remove_diacritics 0');
                INSERT INTO \(fts) (rowid, c0) SELECT sequence, quire_extract(body, '$.body') FROM \(f.collection.table);
                """)
        }
        #expect(try matches(f, "text", "the") == ["a"])
        #expect(try matches(f, "text", "running") == ["b"])
        try f.save(["d": #"{"body":"Runs in the park"}"#])
        #expect(try matches(f, "text", "park") == ["a", "d"])
        let ranked = try f.database.createQuery(
            "SELECT meta().id AS id FROM store.items WHERE MATCH(text, 'park') ORDER BY RANK(text) DESC, meta().id")
        #expect(try ranked.execute().allResults().count == 2)
    }

    @Test func theIndexFollowsSavesDeletesPurgesAndExpirations() throws {
        let f = try fixture()
        try f.collection.createIndex(withName: "text", config: FullTextIndexConfiguration(["title", "body"]))
        #expect(try indexedRows(f, "text") == 3)
        try f.save(["d": #"{"title":"Run club","body":""}"#])
        #expect(try matches(f, "text", "club") == ["d"])
        let d = try #require(try f.collection.document(id: "d")).toMutable()
        d.setString("Chess club", forKey: "title")
        try f.collection.save(document: d)
        #expect(try matches(f, "text", "run") == ["a", "b"])
        #expect(try matches(f, "text", "chess") == ["d"])
        #expect(try indexedRows(f, "text") == 4)
        try f.collection.delete(document: try #require(try f.collection.document(id: "d")))
        #expect(try matches(f, "text", "chess") == [])
        #expect(try indexedRows(f, "text") == 3)
        try f.collection.purge(id: "c")
        #expect(try matches(f, "text", "roses") == [])
        #expect(try indexedRows(f, "text") == 2)
        try f.collection.setDocumentExpiration(id: "a", expiration: f.clock.now.addingTimeInterval(10))
        f.clock.advance(by: 11)
        #expect(try f.collection.document(id: "a") == nil)
        #expect(try indexedRows(f, "text") == 1)
        #expect(try matches(f, "text", "run") == ["b"])
    }

    /// Another process writing with SQLite alone (the sqlite3 shell) cannot read a stored body
    /// (`quire_body.h`): a change to a body is refused by the index's trigger, which names the
    /// function it lacks, and leaves the document and the index as they were; a delete, which
    /// reads no body, keeps the index current.
    @Test func writesFromAnotherProcessEitherKeepTheIndexCurrentOrAreRefused() throws {
        let sqlite = "/usr/bin/sqlite3"
        guard FileManager.default.isExecutableFile(atPath: sqlite) else { return }
        let f = try fixture()
        // A stemmed index names Quire's tokenizer, which the sqlite3 shell does not have;
        // an unstemmed one uses SQLite's own.
        try f.collection.createIndex(withName: "text", config: FullTextIndexConfiguration(["title"], language: nil))
        func shell(_ sql: String) throws -> (status: Int32, error: String) {
            let process = Process()
            let errors = Pipe()
            process.executableURL = URL(fileURLWithPath: sqlite)
            process.arguments = [f.database.filePath, sql]
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        let update = try shell(
            "UPDATE \(f.collection.table) SET body = '{\"title\":\"Knitting\"}' WHERE key = 'c';")
        #expect(update.status != 0)
        #expect(update.error.contains("no such function: quire_"), "\(update.error)")
        #expect(try matches(f, "text", "knitting") == [])
        #expect(try matches(f, "text", "gardening") == ["c"])
        let delete = try shell("DELETE FROM \(f.collection.table) WHERE key = 'a';")
        #expect(delete.status == 0, "\(delete.error)")
        #expect(try matches(f, "text", "running") == [])
    }

    @Test func partialIndexesRankingAndSQLPP() throws {
        let f = try fixture()
        try f.collection.createIndex(
            withName: "posts", config: FullTextIndexConfiguration(["body"], where: "kind = 'post'"))
        #expect(try matches(f, "posts", "roses") == [])
        #expect(try matches(f, "posts", "park OR run") == ["a", "b"])
        let ranked = QueryBuilder.select(
            SelectResult.expression(Meta.id), SelectResult.expression(FullTextFunction.rank("posts")).as("r")
        )
        .from(DataSource.collection(f.collection).as("p"))
        .where(
            FullTextFunction.match("p.posts", query: "run OR park OR culture").and(
                Expression.property("kind").equalTo(Expression.string("post")))
        )
        .orderBy(Ordering.expression(FullTextFunction.rank("posts")).descending())
        let rows = try ranked.execute().allResults()
        #expect(rows.map { $0.string(at: 0) } == ["b", "a"])
        #expect(rows[0].double(forKey: "r") > rows[1].double(forKey: "r"))
        let sqlpp = try f.database.createQuery(
            "SELECT meta().id FROM store.items WHERE MATCH(posts, 'run OR park OR culture') ORDER BY RANK(posts) DESC")
        #expect(try sqlpp.rows() == [#"{"id":"b"}"#, #"{"id":"a"}"#])
        #expect(try sqlpp.explain().contains("VIRTUAL TABLE INDEX"))
    }

    @Test func matchOutsideTheTopLevelIsInvalid() throws {
        let f = try fixture()
        try f.collection.createIndex(withName: "text", config: FullTextIndexConfiguration(["body"]))
        let query = try f.database.createQuery(
            "SELECT meta().id FROM store.items WHERE MATCH(text, 'run') OR kind = 'draft'")
        #expect { try query.execute() } throws: { ($0 as? QuireError)?.code == .invalidQuery }
        let rankOnly = try f.database.createQuery("SELECT RANK(text) FROM store.items")
        #expect { try rankOnly.execute() } throws: { ($0 as? QuireError)?.message.contains("needs a MATCH") == true }
        let badSyntax = try f.database.createQuery("SELECT meta().id FROM store.items WHERE MATCH(text, 'AND AND')")
        #expect { try badSyntax.execute() } throws: { ($0 as? QuireError)?.code == .invalidQuery }
    }

    @Test func fullTextIndexesSurviveReopenAndReplacement() throws {
        let f = try fixture()
        try f.collection.createIndex(withName: "text", config: FullTextIndexConfiguration(["title"]))
        try f.collection.createIndex(
            withName: "text", config: FullTextIndexConfiguration(["body"], ignoreAccents: true))
        #expect(try matches(f, "text", "cafe") == ["a", "b"])
        try f.database.close()
        let reopened = try Database(
            name: "q", config: DatabaseConfiguration(directory: f.directory.path, clock: f.clock))
        let collection = try #require(try reopened.collection(name: "items", scope: "store"))
        #expect(try collection.index(withName: "text")?.isFullText == true)
        try collection.save(document: MutableDocument(id: "e", data: ["body": "Café au lait"]))
        let query = try reopened.createQuery(
            "SELECT meta().id FROM store.items WHERE MATCH(text, 'cafe') ORDER BY meta().id")
        #expect(try query.rows() == [#"{"id":"a"}"#, #"{"id":"b"}"#, #"{"id":"e"}"#])
    }
}
