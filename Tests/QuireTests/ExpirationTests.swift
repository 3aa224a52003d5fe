import Foundation
import Testing

@testable import Quire

@Suite struct ExpirationTests {
    private struct Fixture {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        var config: DatabaseConfiguration { DatabaseConfiguration(directory: directory.path, clock: clock) }

        func open() throws -> (Database, Collection) {
            let database = try Database(name: "exp", config: config)
            return (database, try database.createCollection(name: "items", scope: "app"))
        }
    }

    @Test func setAndGetRoundTripToTheMillisecond() throws {
        let fixture = Fixture()
        let (_, collection) = try fixture.open()
        try collection.save(document: MutableDocument(id: "a"))
        let when = fixture.clock.now.addingTimeInterval(60.123)
        try collection.setDocumentExpiration(id: "a", expiration: when)
        let read = try #require(try collection.getDocumentExpiration(id: "a"))
        #expect(abs(read.timeIntervalSince(when)) < 0.1)
        #expect(try collection.getDocumentExpiration(id: "unsaved") == nil)
        let missing = #expect(throws: QuireError.self) {
            try collection.setDocumentExpiration(id: "unsaved", expiration: when)
        }
        #expect(missing?.code == .notFound)
    }

    @Test func expiredDocumentsArePurgedWithoutATombstoneAndReported() throws {
        let fixture = Fixture()
        let (_, collection) = try fixture.open()
        try collection.save(document: MutableDocument(id: "a"))
        try collection.save(document: MutableDocument(id: "b"))
        let queue = DispatchQueue(label: "expiration-events")
        let log = EventLog()
        let token = collection.addChangeListener(queue: queue) { change in
            log.record(change.documentIDs.joined(separator: ","))
        }
        defer { token.remove() }
        try collection.setDocumentExpiration(id: "a", expiration: fixture.clock.now.addingTimeInterval(10))
        fixture.clock.advance(by: 9)
        #expect(try collection.document(id: "a") != nil)
        fixture.clock.advance(by: 2)
        #expect(try collection.document(id: "a") == nil)
        #expect(try collection.revisionInfo(id: "a") == nil)
        #expect(try collection.document(id: "b") != nil)
        queue.sync {}
        #expect(log.events == ["a"])
        #expect(fixture.clock.pendingCount == 0)
    }

    @Test func documentsThatExpiredWhileClosedAreGoneAfterReopening() throws {
        let fixture = Fixture()
        var (database, collection) = try fixture.open()
        try collection.save(document: MutableDocument(id: "a"))
        try collection.setDocumentExpiration(id: "a", expiration: fixture.clock.now.addingTimeInterval(5))
        try database.close()
        #expect(fixture.clock.pendingCount == 0)
        fixture.clock.advance(by: 60)
        (database, collection) = try fixture.open()
        #expect(try collection.revisionInfo(id: "a") == nil)
    }

    /// Opening runs the purge of what expired while the database was closed; with nothing due
    /// it only reads the expiration index, so an opening writes nothing to the file or its
    /// write-ahead log (it used to commit an unchanged sequence floor at every opening).
    @Test func openingWithNothingDueWritesNothing() throws {
        let fixture = Fixture()
        var (database, collection) = try fixture.open()
        try collection.save(document: MutableDocument(id: "kept"))
        try collection.save(document: MutableDocument(id: "later"))
        try collection.setDocumentExpiration(id: "later", expiration: fixture.clock.now.addingTimeInterval(3600))
        try database.close()
        (database, collection) = try fixture.open()
        let log = database.filePath + "-wal"
        let logSize = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
        #expect(logSize == 0)
        #expect(fixture.clock.pendingCount == 1)
        // What is due is still purged at the next opening.
        try database.close()
        fixture.clock.advance(by: 3601)
        (database, collection) = try fixture.open()
        #expect(try collection.revisionInfo(id: "later") == nil)
        #expect(try collection.document(id: "kept") != nil)
    }

    @Test func aNewDateReplacesThePreviousOne() throws {
        let fixture = Fixture()
        let (_, collection) = try fixture.open()
        try collection.save(document: MutableDocument(id: "later"))
        try collection.save(document: MutableDocument(id: "earlier"))
        let start = fixture.clock.now
        try collection.setDocumentExpiration(id: "later", expiration: start.addingTimeInterval(10))
        try collection.setDocumentExpiration(id: "later", expiration: start.addingTimeInterval(30))
        try collection.setDocumentExpiration(id: "earlier", expiration: start.addingTimeInterval(30))
        try collection.setDocumentExpiration(id: "earlier", expiration: start.addingTimeInterval(5))
        fixture.clock.advance(by: 6)
        #expect(try collection.document(id: "earlier") == nil)
        fixture.clock.advance(by: 10)
        #expect(try collection.document(id: "later") != nil)
        fixture.clock.advance(by: 20)
        #expect(try collection.document(id: "later") == nil)
    }

    @Test func settingNilRemovesTheExpiration() throws {
        let fixture = Fixture()
        let (_, collection) = try fixture.open()
        try collection.save(document: MutableDocument(id: "kept"))
        try collection.setDocumentExpiration(id: "kept", expiration: fixture.clock.now.addingTimeInterval(5))
        try collection.setDocumentExpiration(id: "kept", expiration: nil)
        #expect(try collection.getDocumentExpiration(id: "kept") == nil)
        fixture.clock.advance(by: 60)
        #expect(try collection.document(id: "kept") != nil)
    }

    @Test func deletedDocumentsExpireToo() throws {
        let fixture = Fixture()
        let (_, collection) = try fixture.open()
        let document = MutableDocument(id: "gone")
        try collection.save(document: document)
        try collection.delete(document: document)
        try collection.setDocumentExpiration(id: "gone", expiration: fixture.clock.now.addingTimeInterval(1))
        #expect(try collection.getDocumentExpiration(id: "gone") != nil)
        #expect(try collection.revisionInfo(id: "gone")?.isDeleted == true)
        fixture.clock.advance(by: 2)
        #expect(try collection.revisionInfo(id: "gone") == nil)
    }

    @Test func aDateInThePastPurgesAtOnce() throws {
        let fixture = Fixture()
        let (_, collection) = try fixture.open()
        try collection.save(document: MutableDocument(id: "past"))
        try collection.setDocumentExpiration(id: "past", expiration: fixture.clock.now.addingTimeInterval(-1))
        #expect(try collection.revisionInfo(id: "past") == nil)
    }

    @Test func expirationSurvivesSavesOfTheDocument() throws {
        let fixture = Fixture()
        let (_, collection) = try fixture.open()
        let document = MutableDocument(id: "edited")
        try collection.save(document: document)
        try collection.setDocumentExpiration(id: "edited", expiration: fixture.clock.now.addingTimeInterval(10))
        document.setInt(1, forKey: "n")
        try collection.save(document: document)
        #expect(try collection.getDocumentExpiration(id: "edited") != nil)
        fixture.clock.advance(by: 11)
        #expect(try collection.document(id: "edited") == nil)
    }

    @Test func theSystemClockPurgesOnItsOwn() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "system", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        try collection.save(document: MutableDocument(id: "soon"))
        let purged = DispatchSemaphore(value: 0)
        let token = collection.addDocumentChangeListener(id: "soon") { _ in purged.signal() }
        defer { token.remove() }
        try collection.setDocumentExpiration(id: "soon", expiration: Date().addingTimeInterval(0.05))
        #expect(purged.wait(timeout: .now() + 10) == .success)
        #expect(try collection.revisionInfo(id: "soon") == nil)
    }

    @Test func sequencesAreNeverReusedAfterExpiration() throws {
        let fixture = Fixture()
        let (_, collection) = try fixture.open()
        try collection.save(document: MutableDocument(id: "a"))
        try collection.save(document: MutableDocument(id: "b"))
        try collection.setDocumentExpiration(id: "b", expiration: fixture.clock.now.addingTimeInterval(1))
        fixture.clock.advance(by: 2)
        #expect(try collection.document(id: "b") == nil)
        let c = MutableDocument(id: "c")
        try collection.save(document: c)
        #expect(c.sequence == 3)
    }

    @Test func theNextExpirationIsFoundThroughTheIndex() throws {
        let fixture = Fixture()
        let (database, collection) = try fixture.open()
        for number in 0..<50 {
            try collection.save(document: MutableDocument(id: "d\(number)"))
        }
        try collection.setDocumentExpiration(id: "d7", expiration: fixture.clock.now.addingTimeInterval(60))
        let sql = Housekeeper.earliestExpirationSQL(collection: collection.id)
        let plan = try database.read { connection in
            try connection.query("EXPLAIN QUERY PLAN " + sql) { $0.text(at: 3) ?? "" }
        }.joined(separator: "\n")
        #expect(plan.contains("USING COVERING INDEX") && plan.contains("_expiration"), "plan: \(plan)")
        #expect(!plan.contains("SCAN"), "plan: \(plan)")
        let next = try database.read { try Housekeeper.earliestExpiration($0) }
        let stored = try #require(try collection.getDocumentExpiration(id: "d7"))
        #expect(next == Int64((stored.timeIntervalSince1970 * 1000).rounded()))
    }
}
