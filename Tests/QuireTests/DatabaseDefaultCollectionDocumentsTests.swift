import Foundation
import Quire
import Testing

/// The hotel-bookmark code of Couchbase Lite's Swift tutorial "The Basics" (the travel app),
/// written against Couchbase Lite 2.x's database-level document API. Its lines are kept as the
/// tutorial has them; the one adaptation is the query's data source, the default collection
/// (Couchbase Lite 3.x's own replacement for `DataSource.database`).
///
/// The tutorial's calls are deprecated in Quire as in Couchbase Lite 3.x; they are made from
/// deprecated witnesses and reached through a protocol, so the test target builds without
/// deprecation warnings while the calls compile exactly as written.
protocol HotelBookmarking {
    func bookmarkHotels(_ ids: [String], hotels: [[String: Any]], in db: Database) throws
    func unbookmarkHotels(_ idsToRemove: [String], in db: Database) throws
    func fetchGuestBookmarkDocumentFromDB(_ db: Database) throws -> Document?
}

struct TutorialHotelBookmarks: HotelBookmarking {
    @available(*, deprecated, message: "the tutorial's Couchbase Lite 2.x calls, kept as written")
    func fetchGuestBookmarkDocumentFromDB(_ db: Database) throws -> Document? {
        let searchQuery =
            QueryBuilder
            .select(SelectResult.expression(Meta.id))
            .from(DataSource.collection(try db.defaultCollection()))
            .where(Expression.property("type").equalTo(Expression.string("bookmarkedhotels")))
        for row in try searchQuery.execute() {
            if let docId = row.string(forKey: "id") {
                return db.document(withID: docId)
            }
        }
        return nil
    }

    @available(*, deprecated, message: "the tutorial's Couchbase Lite 2.x calls, kept as written")
    func bookmarkHotels(_ ids: [String], hotels: [[String: Any]], in db: Database) throws {
        var document = try fetchGuestBookmarkDocumentFromDB(db)?.toMutable()
        if document == nil {
            document = MutableDocument.init(withData: ["type": "bookmarkedhotels", "hotels": [String]()])
        }
        var bookmarked = document?.array(forKey: "hotels")
        for newId in ids { bookmarked = bookmarked?.addString(newId) }
        if let document = document?.toMutable() {
            document.setArray(bookmarked, forKey: "hotels")
            try db.saveDocument(document)
        }
        for hotelDoc in hotels {
            if let idVal = hotelDoc["id"] as? String {
                if let doc = db.document(withID: idVal)?.toMutable() {
                    doc.setData(hotelDoc)
                    try db.saveDocument(doc)
                } else {
                    try db.saveDocument(MutableDocument.init(withID: idVal, data: hotelDoc))
                }
            }
        }
    }

    @available(*, deprecated, message: "the tutorial's Couchbase Lite 2.x calls, kept as written")
    func unbookmarkHotels(_ idsToRemove: [String], in db: Database) throws {
        for idOfDocToRemove in idsToRemove {
            if let doc = db.document(withID: idOfDocToRemove) { try db.deleteDocument(doc) }
        }
    }
}

/// The 2.x wrappers reached the same way, for the checks the tutorial does not make.
protocol LegacyDatabaseCalls {
    func count(_ db: Database) -> UInt64
    func purge(_ id: String, in db: Database) throws
    func expire(_ id: String, at date: Date?, in db: Database) throws -> Date?
    func listen(_ db: Database, _ listener: @escaping @Sendable (DatabaseChange) -> Void) -> ListenerToken
    func save(_ document: MutableDocument, failOnConflict: Bool, in db: Database) throws -> Bool
}

struct LegacyDatabaseAPI: LegacyDatabaseCalls {
    @available(*, deprecated, message: "Couchbase Lite 2.x calls")
    func count(_ db: Database) -> UInt64 { db.count }

    @available(*, deprecated, message: "Couchbase Lite 2.x calls")
    func purge(_ id: String, in db: Database) throws { try db.purgeDocument(withID: id) }

    @available(*, deprecated, message: "Couchbase Lite 2.x calls")
    func expire(_ id: String, at date: Date?, in db: Database) throws -> Date? {
        try db.setDocumentExpiration(withID: id, expiration: date)
        return db.getDocumentExpiration(withID: id)
    }

    @available(*, deprecated, message: "Couchbase Lite 2.x calls")
    func listen(_ db: Database, _ listener: @escaping @Sendable (DatabaseChange) -> Void) -> ListenerToken {
        db.addChangeListener(listener: listener)
    }

    @available(*, deprecated, message: "Couchbase Lite 2.x calls")
    func save(_ document: MutableDocument, failOnConflict: Bool, in db: Database) throws -> Bool {
        try db.saveDocument(document, concurrencyControl: failOnConflict ? .failOnConflict : .lastWriteWins)
    }
}

@Suite struct DatabaseDefaultCollectionDocumentsTests {
    let hotels: [[String: Any]] = [
        ["id": "hotel_1", "name": "Hotel Ted", "city": "Paris", "type": "hotel"],
        ["id": "hotel_2", "name": "Hotel Fred", "city": "Nice", "type": "hotel"],
        ["id": "hotel_3", "name": "Hotel Ned", "city": "Lyon", "type": "hotel"],
    ]

    @Test func theTutorialsBookmarkAndUnbookmarkCodeRunsAsWritten() throws {
        let directory = TemporaryDirectory()
        let db = try Database(name: "travel", config: DatabaseConfiguration(directory: directory.path))
        let tutorial: any HotelBookmarking = TutorialHotelBookmarks()
        let collection = try db.defaultCollection()

        try tutorial.bookmarkHotels(["hotel_1", "hotel_2"], hotels: Array(hotels.prefix(2)), in: db)
        let bookmarks = try #require(try tutorial.fetchGuestBookmarkDocumentFromDB(db))
        #expect(bookmarks.string(forKey: "type") == "bookmarkedhotels")
        #expect(bookmarks.array(forKey: "hotels")?.toArray() as? [String] == ["hotel_1", "hotel_2"])
        #expect(try collection.document(id: "hotel_2")?.string(forKey: "name") == "Hotel Fred")

        // A second call finds the bookmark document and extends it; an existing hotel is updated.
        var renamed = hotels[0]
        renamed["name"] = "Hotel Ted Renamed"
        try tutorial.bookmarkHotels(["hotel_3"], hotels: [renamed, hotels[2]], in: db)
        let again = try #require(try tutorial.fetchGuestBookmarkDocumentFromDB(db))
        #expect(again.id == bookmarks.id)
        #expect(again.array(forKey: "hotels")?.toArray() as? [String] == ["hotel_1", "hotel_2", "hotel_3"])
        #expect(try collection.document(id: "hotel_1")?.string(forKey: "name") == "Hotel Ted Renamed")
        #expect(try collection.document(id: "hotel_1")?.revisionID?.hasPrefix("2-") == true)
        #expect(collection.count == 4)

        try tutorial.unbookmarkHotels(["hotel_1", "hotel_3", "never_saved"], in: db)
        #expect(try collection.document(id: "hotel_1") == nil)
        #expect(try collection.revisionInfo(id: "hotel_1")?.isDeleted == true)
        #expect(try collection.document(id: "hotel_3") == nil)
        #expect(try collection.document(id: "hotel_2") != nil)
        #expect(collection.count == 2)
    }

    @Test func mutableContainersReadFromAMutableDocumentAreLiveAndMutable() throws {
        let document = MutableDocument(id: "d", data: ["list": [1], "map": ["k": "v"], "nested": [[0], ["a": 1]]])
        let list: MutableArrayObject? = document.array(forKey: "list")
        list?.addInt(2)
        let map: MutableDictionaryObject? = document.dictionary(forKey: "map")
        map?.setString("w", forKey: "k2")
        let nested: MutableArrayObject? = document.array(forKey: "nested")
        nested?.array(at: 0)?.addInt(1)
        nested?.dictionary(at: 1)?.setInt(2, forKey: "b")
        let inner: MutableDictionaryObject? = map?.dictionary(forKey: "missing")
        #expect(inner == nil)
        #expect(document.array(forKey: "list")?.toArray() as? [Int] == [1, 2])
        #expect(document.dictionary(forKey: "map")?.string(forKey: "k2") == "w")
        #expect(document.toJSON() == #"{"list":[1,2],"map":{"k":"v","k2":"w"},"nested":[[0,1],{"a":1,"b":2}]}"#)

        // A read document still gives immutable containers; its mutable copy gives live ones.
        let directory = TemporaryDirectory()
        let db = try Database(name: "live", config: DatabaseConfiguration(directory: directory.path))
        try db.defaultCollection().save(document: document)
        let stored = try #require(try db.defaultCollection().document(id: "d"))
        let readOnly: ArrayObject? = stored.array(forKey: "list")
        #expect(!(readOnly is MutableArrayObject))
        let edit = stored.toMutable()
        edit.array(forKey: "list")?.addInt(3)
        try db.defaultCollection().save(document: edit)
        #expect(try db.defaultCollection().document(id: "d")?.array(forKey: "list")?.toArray() as? [Int] == [1, 2, 3])
    }

    @Test func theOtherDatabaseLevelWrappersActOnTheDefaultCollection() throws {
        let directory = TemporaryDirectory()
        let db = try Database(name: "legacy", config: DatabaseConfiguration(directory: directory.path))
        let legacy: any LegacyDatabaseCalls = LegacyDatabaseAPI()
        let heard = Heard()
        let token = legacy.listen(db) { change in heard.append(change.documentIDs) }
        defer { token.remove() }
        let document = MutableDocument(id: "a", data: ["v": 1])
        #expect(try legacy.save(document, failOnConflict: true, in: db))
        #expect(legacy.count(db) == 1)
        let stale = try #require(try db.defaultCollection().document(id: "a")).toMutable()
        try db.defaultCollection().save(document: document.setInt(2, forKey: "v"))
        #expect(try legacy.save(stale.setInt(3, forKey: "v"), failOnConflict: true, in: db) == false)
        let when = Date(timeIntervalSince1970: 4_000_000_000)
        #expect(try legacy.expire("a", at: when, in: db) == when)
        try legacy.purge("a", in: db)
        #expect(legacy.count(db) == 0)
        #expect(heard.waitFor(count: 3))
        #expect(heard.batches.prefix(3).allSatisfy { $0 == ["a"] })
    }
}

/// What a change listener heard, waited for by event with a bounded safety net.
private final class Heard: @unchecked Sendable {
    private let condition = NSCondition()
    private var heard: [[String]] = []

    var batches: [[String]] {
        condition.lock()
        defer { condition.unlock() }
        return heard
    }

    func append(_ ids: [String]) {
        condition.lock()
        heard.append(ids)
        condition.broadcast()
        condition.unlock()
    }

    func waitFor(count: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(30)
        while heard.count < count {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }
}
