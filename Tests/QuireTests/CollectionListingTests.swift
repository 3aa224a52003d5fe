import Foundation
import Testing

@testable import Quire

@Suite struct CollectionListingTests {
    private func counts(_ collection: Collection) throws -> (live: UInt64, deleted: UInt64) {
        (collection.count, collection.deletedCount)
    }

    /// What a scan of the table says, to compare the counts with.
    private func scanned(_ collection: Collection) throws -> (live: UInt64, deleted: UInt64) {
        let all = try collection.changes(since: 0)
        return (UInt64(all.filter { !$0.isDeleted }.count), UInt64(all.filter(\.isDeleted).count))
    }

    @Test func countsFollowSavesDeletesPurgesRevisionsAndExpirations() throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let database = try Database(
            name: "counts", config: DatabaseConfiguration(directory: directory.path, clock: clock))
        let collection = try database.createCollection(name: "items", scope: "app")
        let other = try database.defaultCollection()
        #expect(try counts(collection) == (0, 0))

        for index in 0..<10 { try collection.save(document: MutableDocument(id: "d\(index)", data: ["n": index])) }
        try other.save(document: MutableDocument(id: "elsewhere"))
        #expect(try counts(collection) == (10, 0))
        // An update changes neither count.
        let edited = try #require(try collection.document(id: "d0")).toMutable().setInt(99, forKey: "n")
        try collection.save(document: edited)
        #expect(try counts(collection) == (10, 0))

        try collection.delete(document: try #require(try collection.document(id: "d1")))
        try collection.delete(document: try #require(try collection.document(id: "d2")))
        #expect(try counts(collection) == (8, 2))
        // Reviving a deleted document.
        try collection.save(document: MutableDocument(id: "d1", data: ["back": true]))
        #expect(try counts(collection) == (9, 1))

        try collection.purge(id: "d3")
        try collection.purge(id: "d2")
        #expect(try counts(collection) == (8, 0))

        // Replicated revisions: a new document, a tombstone on top of a live one.
        try collection.insert(
            ForeignRevision(documentID: "r", revisionID: "1-aa", ancestors: [], isDeleted: false, body: [:]))
        #expect(try counts(collection) == (9, 0))
        let current = try #require(try collection.revisionInfo(id: "d4")?.revisionID)
        try collection.insert(
            ForeignRevision(documentID: "d4", revisionID: "9-ff", ancestors: [current], isDeleted: true, body: [:]))
        #expect(try counts(collection) == (8, 1))

        try collection.setDocumentExpiration(id: "d5", expiration: clock.now.addingTimeInterval(5))
        try collection.setDocumentExpiration(id: "d4", expiration: clock.now.addingTimeInterval(5))
        clock.advance(by: 6)
        #expect(try collection.revisionInfo(id: "d5") == nil)
        #expect(try counts(collection) == (7, 0))
        #expect(try counts(collection) == scanned(collection))
        #expect(try counts(other) == (1, 0))

        // A batch that fails leaves the counts as they were.
        #expect(throws: QuireError.self) {
            try database.inBatch {
                try collection.save(document: MutableDocument(id: "in-batch"))
                throw QuireError(.conflict, "abandon the batch")
            }
        }
        #expect(try counts(collection) == (7, 0))
    }

    @Test func countingReadsIndexesNotDocuments() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "plan", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        let plans = try database.read { connection in
            try [StoreSchema.liveCountSQL(collection.table), StoreSchema.deletedCountSQL(collection.table)].map { sql in
                try connection.query("EXPLAIN QUERY PLAN " + sql) { $0.text(at: 3) ?? "" }.joined(separator: "; ")
            }
        }
        // Every step of both plans reads an index; none scans the table with the bodies.
        for plan in plans {
            #expect(plan.contains("COVERING INDEX"), "\(plan)")
            let scans = plan.components(separatedBy: "; ").filter { $0.hasPrefix("SCAN") && $0 != "SCAN CONSTANT ROW" }
            #expect(!scans.isEmpty && scans.allSatisfy { $0.contains("USING COVERING INDEX") }, "\(plan)")
        }
    }

    @Test func aFileOfSchemaThreeGainsTheDeletedIndexOnOpening() throws {
        let directory = TemporaryDirectory()
        do {
            let database = try Database(name: "old", config: DatabaseConfiguration(directory: directory.path))
            let collection = try database.defaultCollection()
            for index in 0..<5 { try collection.save(document: MutableDocument(id: "d\(index)")) }
            try collection.delete(document: try #require(try collection.document(id: "d0")))
            try database.close()
        }
        // Back to schema version 3: the document table without the index of deleted rows.
        let path = URL(fileURLWithPath: Database.folderPath(name: "old", directory: directory.path))
            .appendingPathComponent(Database.fileName).path
        let connection = try Connection(path: path, role: .writer, options: Connection.Options())
        try connection.execute("DROP INDEX docs_1_deleted; PRAGMA user_version = 3;")
        connection.close()

        let reopened = try Database(name: "old", config: DatabaseConfiguration(directory: directory.path))
        let collection = try reopened.defaultCollection()
        #expect(collection.count == 4)
        #expect(collection.deletedCount == 1)
        let index = try reopened.read {
            try $0.scalarText("SELECT name FROM sqlite_schema WHERE type = 'index' AND name = 'docs_1_deleted'")
        }
        #expect(index == "docs_1_deleted")
        try collection.save(document: MutableDocument(id: "new"))
        #expect(collection.count == 5)
        try reopened.close()
    }

    @Test func liveDocumentsAreListedInByteOrderFromTheIndex() throws {
        let directory = TemporaryDirectory()
        let collection = try Database(name: "list", config: DatabaseConfiguration(directory: directory.path))
            .defaultCollection()
        for id in ["b", "a", "é", "Z", "c", "d"] { try collection.save(document: MutableDocument(id: id)) }
        try collection.delete(document: try #require(try collection.document(id: "c")))
        #expect(try collection.liveDocuments().map(\.id) == ["Z", "a", "b", "d", "é"])
        #expect(try collection.liveDocuments(descending: true).map(\.id) == ["é", "d", "b", "a", "Z"])
        #expect(try collection.liveDocuments(limit: 1).map(\.id) == ["Z"])
        #expect(try collection.liveDocuments(skip: 1, limit: 2).map(\.id) == ["a", "b"])
        #expect(try collection.liveDocuments(from: "a", to: "d", inclusiveEnd: false).map(\.id) == ["a", "b"])
        #expect(try collection.liveDocuments(from: "d", to: "a", descending: true).map(\.id) == ["d", "b", "a"])
        #expect(
            try collection.liveDocuments(from: "d", to: "a", inclusiveEnd: false, descending: true).map(\.id) == [
                "d", "b",
            ])
        let first = try #require(try collection.liveDocuments(limit: 1).first)
        #expect(first.revisionID == (try collection.revisionInfo(id: "Z")?.revisionID))
    }

    @Test func changesDescendingGivesTheNewestFirst() throws {
        let directory = TemporaryDirectory()
        let collection = try Database(name: "desc", config: DatabaseConfiguration(directory: directory.path))
            .defaultCollection()
        for id in ["a", "b", "c"] { try collection.save(document: MutableDocument(id: id)) }
        try collection.save(document: try #require(try collection.document(id: "a")).toMutable().setInt(1, forKey: "v"))
        #expect(try collection.changesDescending().map(\.documentID) == ["a", "c", "b"])
        #expect(try collection.changesDescending(limit: 2).map(\.documentID) == ["a", "c"])
        let sequenceOfC = try #require(try collection.changesDescending().first { $0.documentID == "c" }?.sequence)
        #expect(try collection.changesDescending(before: sequenceOfC).map(\.documentID) == ["b"])
    }
}
