import CSQLite
import Foundation
import Testing

@testable import Quire

@Suite struct CollectionTests {
    private func makeCollection(_ directory: TemporaryDirectory, depth: Int = 20) throws -> Collection {
        let database = try Database(
            name: "col", config: DatabaseConfiguration(directory: directory.path, maxRevTreeDepth: depth))
        return try database.createCollection(name: "items", scope: "store")
    }

    @Test func savingAssignsRevisionsAndSequences() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        let document = MutableDocument(id: "a", data: ["v": 1])
        try collection.save(document: document)
        #expect(document.revisionID?.hasPrefix("1-") == true)
        #expect(document.sequence == 1)
        #expect(document.collection == collection)
        document.setInt(2, forKey: "v")
        try collection.save(document: document)
        #expect(document.revisionID?.hasPrefix("2-") == true)
        #expect(document.sequence == 2)
        let other = MutableDocument(id: "b")
        try collection.save(document: other)
        #expect(other.sequence == 3)
        let read = try #require(try collection.document(id: "a"))
        #expect(read.revisionID == document.revisionID)
        #expect(read.sequence == 2)
        #expect(read.int(forKey: "v") == 2)
        #expect(collection.count == 2)
        #expect(try collection.document(id: "missing") == nil)
    }

    /// Couchbase Lite's DocumentTest.testDocumentResaveInAnotherCollection and
    /// DatabaseTest.testSaveDocInDifferenceDB: a document object belongs to the collection it
    /// was saved in or read from; another collection or database refuses it, and stores nothing.
    @Test func aDocumentIsRefusedByAnotherCollectionOrDatabase() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        let other = try collection.database.createCollection(name: "others", scope: "store")
        try collection.save(document: MutableDocument(id: "doc1", data: ["greeting": "hello"]))
        let read = try #require(try collection.document(id: "doc1")).toMutable()
        #expect(throws: QuireError.self) { try other.save(document: read) }
        #expect(throws: QuireError.self) { try other.delete(document: read) }
        #expect(try other.document(id: "doc1") == nil)

        let elsewhere = try Database(name: "otherDB", config: DatabaseConfiguration(directory: directory.path))
        defer { try? elsewhere.close() }
        read.setInt(2, forKey: "key")
        do {
            try elsewhere.defaultCollection().save(document: read)
            Issue.record("a document of another database was saved")
        } catch let error as QuireError {
            #expect(error.code == .invalidParameter)
            #expect(error.message.contains("belongs to database 'col'"))
        }
        #expect(try elsewhere.defaultCollection().count == 0)
    }

    /// Couchbase Lite's DatabaseTest.testSaveDocInDifferenceDBInstance and
    /// testPurgeDocInDifferentDBInstance: another `Database` object on the same file refuses
    /// the first object's document, for saves and purges alike.
    @Test func aDocumentIsRefusedByAnotherObjectOnTheSameFile() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        let document = MutableDocument(id: "doc1", data: ["key": 1])
        try collection.save(document: document)
        let second = try Database(name: "col", config: DatabaseConfiguration(directory: directory.path))
        defer { try? second.close() }
        let secondCollection = try #require(try second.collection(name: "items", scope: "store"))
        #expect(secondCollection == collection)
        document.setInt(2, forKey: "key")
        #expect(throws: QuireError.self) { try secondCollection.save(document: document) }
        #expect(throws: QuireError.self) { try secondCollection.purge(document: document) }
        #expect(try secondCollection.document(id: "doc1")?.int(forKey: "key") == 1)
        try secondCollection.purge(id: "doc1")
        #expect(try collection.document(id: "doc1") == nil)
    }

    /// DatabaseTest.testConflictHandlerWhenDocumentIsPurged and testConflictHandlerCalledTwice.
    @Test func conflictHandlersMeetPurgesAndTheirOwnWrites() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.save(document: MutableDocument(id: "gone", data: ["v": 1]))
        let stale = try #require(try collection.document(id: "gone")).toMutable()
        try collection.purge(id: "gone")
        do {
            _ = try collection.save(document: stale) { _, _ in true }
            Issue.record("a document purged since it was read was saved")
        } catch let error as QuireError {
            #expect(error.code == .notFound)
        }
        #expect(try collection.save(document: stale, concurrencyControl: .failOnConflict) == false)

        try collection.save(document: MutableDocument(id: "d", data: [:]))
        let mine = try #require(try collection.document(id: "d")).toMutable()
        let theirs = try #require(try collection.document(id: "d")).toMutable()
        theirs.setString("Scott", forKey: "firstName")
        try collection.save(document: theirs)
        mine.setString("Lion", forKey: "middleName")
        var calls = 0
        let saved = try collection.save(document: mine) { document, stored in
            calls += 1
            if calls == 1, let stored {
                let writer = stored.toMutable()
                writer.setBoolean(true, forKey: "secondUpdate")
                try collection.save(document: writer)
            }
            for key in stored?.keys ?? [] where !document.contains(key: key) {
                document.setValue(stored?.value(forKey: key), forKey: key)
            }
            return true
        }
        #expect(saved)
        #expect(calls == 2)
        let result = try #require(try collection.document(id: "d"))
        #expect(result.string(forKey: "firstName") == "Scott")
        #expect(result.boolean(forKey: "secondUpdate"))
        #expect(result.string(forKey: "middleName") == "Lion")
    }

    @Test func revisionIDsAreDeterministic() throws {
        let first = TemporaryDirectory()
        let second = TemporaryDirectory()
        let one = try makeCollection(first)
        let two = try makeCollection(second)
        let a = MutableDocument(id: "same", data: ["x": 1, "y": ["z": "w"]])
        let b = MutableDocument(id: "same", data: ["y": ["z": "w"], "x": 1])
        try one.save(document: a)
        try two.save(document: b)
        #expect(a.revisionID == b.revisionID)
        a.setInt(2, forKey: "x")
        b.setInt(2, forKey: "x")
        try one.save(document: a)
        try two.save(document: b)
        #expect(a.revisionID == b.revisionID)
        b.setInt(3, forKey: "x")
        try two.save(document: b)
        #expect(a.revisionID != b.revisionID)
        let hex = try #require(a.revisionID?.split(separator: "-").last)
        #expect(hex.count == 40)
    }

    @Test func failOnConflictReturnsFalseWhenTheStoredRevisionChanged() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.save(document: MutableDocument(id: "c", data: ["v": 0]))
        let first = try #require(try collection.document(id: "c")).toMutable()
        let second = try #require(try collection.document(id: "c")).toMutable()
        first.setInt(1, forKey: "v")
        #expect(try collection.save(document: first, concurrencyControl: .failOnConflict))
        second.setInt(2, forKey: "v")
        #expect(try !collection.save(document: second, concurrencyControl: .failOnConflict))
        #expect(try collection.document(id: "c")?.int(forKey: "v") == 1)
        #expect(try collection.save(document: second, concurrencyControl: .lastWriteWins))
        #expect(try collection.document(id: "c")?.int(forKey: "v") == 2)
        #expect(second.revisionID?.hasPrefix("3-") == true)

        let fresh = MutableDocument(id: "c", data: ["v": 9])
        #expect(try !collection.save(document: fresh, concurrencyControl: .failOnConflict))
        let stale = try #require(try collection.document(id: "c"))
        try collection.save(document: MutableDocument(id: "c", data: ["v": 10]))
        #expect(try !collection.delete(document: stale, concurrencyControl: .failOnConflict))
        #expect(try collection.document(id: "c")?.int(forKey: "v") == 10)
    }

    @Test func conflictHandlersSeeBothSidesAndDecide() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.save(document: MutableDocument(id: "h", data: ["n": 1, "from": "base"]))
        let mine = try #require(try collection.document(id: "h")).toMutable()
        let theirs = try #require(try collection.document(id: "h")).toMutable()
        theirs.setInt(5, forKey: "n")
        try collection.save(document: theirs)
        mine.setString("mine", forKey: "from")
        var seen: Int?
        let saved = try collection.save(document: mine) { document, stored in
            seen = stored?.int(forKey: "n")
            document.setInt((stored?.int(forKey: "n") ?? 0) + 1, forKey: "n")
            return true
        }
        #expect(saved)
        #expect(seen == 5)
        let merged = try #require(try collection.document(id: "h"))
        #expect(merged.int(forKey: "n") == 6)
        #expect(merged.string(forKey: "from") == "mine")
        #expect(merged.revisionID?.hasPrefix("3-") == true)

        let loser = theirs.toMutable()
        loser.setInt(0, forKey: "n")
        #expect(try !collection.save(document: loser) { _, _ in false })
        #expect(try collection.document(id: "h")?.int(forKey: "n") == 6)
    }

    @Test func deleteLeavesATombstoneAndPurgeLeavesNothing() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        let doomed = MutableDocument(id: "d", data: ["v": 1])
        try collection.save(document: doomed)
        try collection.delete(document: doomed)
        #expect(doomed.isDeleted)
        #expect(doomed.revisionID?.hasPrefix("2-") == true)
        #expect(try collection.document(id: "d") == nil)
        let tombstone = try #require(try collection.revisionInfo(id: "d"))
        #expect(tombstone.isDeleted)
        #expect(tombstone.history.count == 1)
        #expect(collection.count == 0)

        try collection.purge(id: "d")
        #expect(try collection.revisionInfo(id: "d") == nil)

        let revived = MutableDocument(id: "d", data: ["v": 2])
        #expect(try collection.save(document: revived, concurrencyControl: .failOnConflict))
        #expect(revived.revisionID?.hasPrefix("1-") == true)

        let purged = try #require(try collection.document(id: "d"))
        try collection.purge(document: purged)
        #expect(try collection.revisionInfo(id: "d") == nil)
    }

    /// Couchbase Lite's DatabaseTest testDeleteSameDocTwice: the second delete of the same
    /// object writes another tombstone and advances the sequence; the object can then be
    /// saved again over its tombstone.
    @Test func deletingTheSameDocumentTwiceWritesASecondTombstone() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        let doc = MutableDocument(id: "doc1", data: ["key": 1])
        try collection.save(document: doc)
        #expect(doc.sequence == 1)

        try collection.delete(document: doc)
        #expect(collection.count == 0)
        #expect(try collection.document(id: doc.id) == nil)
        #expect(doc.sequence == 2)

        try collection.delete(document: doc)
        #expect(collection.count == 0)
        #expect(try collection.document(id: doc.id) == nil)
        #expect(doc.sequence == 3)
        #expect(doc.isDeleted)
        #expect(doc.revisionID?.hasPrefix("3-") == true)
        #expect(try collection.revisionInfo(id: doc.id)?.revisionID == doc.revisionID)

        // A tombstone read elsewhere deletes the same way.
        let info = try #require(try collection.revisionInfo(id: doc.id))
        let tombstone = try #require(try collection.document(id: doc.id, revisionID: info.revisionID))
        try collection.delete(document: tombstone)
        #expect(tombstone.sequence == 4)

        // Saving an object whose revision is the stored tombstone revives the document.
        let revived = tombstone.toMutable().setInt(2, forKey: "key")
        #expect(try collection.save(document: revived, concurrencyControl: .failOnConflict))
        #expect(try collection.document(id: doc.id)?.int(forKey: "key") == 2)
        #expect(revived.revisionID?.hasPrefix("5-") == true)
        #expect(!revived.isDeleted)
    }

    /// Deletes and purges the never-saved document "ghost" in the three ways there are, and
    /// expects each to fail with `code`.
    private func expectGhostDeletesAndPurges(in collection: Collection, toFailWith code: QuireError.Code) {
        for operation in [
            { try collection.delete(document: MutableDocument(id: "ghost")) },
            { try collection.purge(document: MutableDocument(id: "ghost")) },
            { try collection.purge(id: "ghost") },
        ] as [() throws -> Void] {
            let error = #expect(throws: QuireError.self, performing: operation)
            #expect(error?.code == code, "\(error.map { "\($0)" } ?? "")")
        }
    }

    @Test func deletingOrPurgingUnsavedDocumentsIsNotFound() throws {
        let directory = TemporaryDirectory()
        expectGhostDeletesAndPurges(in: try makeCollection(directory), toFailWith: .notFound)
    }

    /// A closed database or a deleted collection says notOpen before a document object that
    /// was never saved says notFound (Couchbase Lite's `CollectionTest.testUseInvalidCollection`
    /// expects notOpen from every document call once the database is closed or the collection
    /// deleted; its purge checks the database before the document).
    @Test(arguments: ["close the database", "delete the collection"])
    func unsavedDocumentsOfAClosedDatabaseOrADeletedCollectionAreNotOpen(_ action: String) throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        if action == "close the database" {
            try collection.database.close()
        } else {
            try collection.database.deleteCollection(name: "items", scope: "store")
        }
        expectGhostDeletesAndPurges(in: collection, toFailWith: .notOpen)
    }

    @Test func reservedTopLevelKeysAreRejected() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        for key in ["_id", "_rev", "_deleted"] {
            let error = #expect(throws: QuireError.self) {
                try collection.save(document: MutableDocument(id: "r", data: [key: "x"]))
            }
            #expect(error?.code == .corruptRevisionData)
            #expect(error?.message.contains("'\(key)'") == true)
        }
        try collection.save(document: MutableDocument(id: "ok1", data: ["_attachments": [:], "_removed": true]))
        try collection.save(
            document: MutableDocument(id: "ok2", data: ["nested": ["_id": 1, "_rev": 2, "_deleted": true]]))
        #expect(collection.count == 2)
    }

    @Test func savingThroughAnotherDatabasesCollectionIsInvalidParameter() throws {
        let directory = TemporaryDirectory()
        let one = try Database(name: "one", config: DatabaseConfiguration(directory: directory.path))
        let two = try Database(name: "two", config: DatabaseConfiguration(directory: directory.path))
        let document = MutableDocument(id: "x")
        try one.defaultCollection().save(document: document)
        let error = #expect(throws: QuireError.self) { try two.defaultCollection().save(document: document) }
        #expect(error?.code == .invalidParameter)
        let sibling = try one.createCollection(name: "other")
        let sameDatabase = #expect(throws: QuireError.self) { try sibling.save(document: document) }
        #expect(sameDatabase?.code == .invalidParameter)
    }

    @Test func historyIsPrunedToTheConfiguredDepth() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory, depth: 5)
        let document = MutableDocument(id: "deep")
        for n in 0..<12 {
            document.setInt(n, forKey: "n")
            try collection.save(document: document)
        }
        let info = try #require(try collection.revisionInfo(id: "deep"))
        #expect(info.revisionID.hasPrefix("12-"))
        #expect(info.history.count == 4)
        #expect(info.history.first?.hasPrefix("11-") == true)
    }

    @Test func codableValuesSaveAndLoad() throws {
        struct Person: Codable, Equatable {
            var name: String
            var age: Int
            var admin: Bool
            var tags: [String]
        }
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        let person = Person(name: "Ada", age: 36, admin: true, tags: ["math"])
        let saved = try collection.save(from: person, id: "ada")
        #expect(saved.revisionID != nil)
        #expect(try collection.document(id: "ada", as: Person.self) == person)
        #expect(try collection.document(id: "nobody", as: Person.self) == nil)
        #expect(try collection.document(id: "ada")?.value(forKey: "admin") as? Bool == true)
        let generated = try collection.save(from: Person(name: "Grace", age: 45, admin: false, tags: []))
        #expect(UUID(uuidString: generated.id) != nil)
        #expect(try collection.document(id: generated.id, as: Person.self)?.name == "Grace")
    }

    @Test func badDocumentIDsAreRejected() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        // LiteCore's isValidDocID, as its c4DocumentTest "Invalid docID" and "Document Get
        // With Invalid ID" check it: every entry point that takes an ID refuses these.
        let invalid = ["", String(repeating: "i", count: 241), "_a", "oops\u{0}oops", "oops\noops", "\u{1F}"]
        for id in invalid {
            let error = #expect(throws: QuireError.self) { try collection.save(document: MutableDocument(id: id)) }
            #expect(error?.code == .badDocID)
            #expect(error?.errorCode == 29)
            for operation in [
                { _ = try collection.document(id: id) },
                { try collection.purge(id: id) },
                { try collection.setDocumentExpiration(id: id, expiration: Date()) },
                { _ = try collection.getDocumentExpiration(id: id) },
                { _ = try collection.revisionInfo(id: id) },
                { _ = try collection.leaves(id: id) },
            ] as [() throws -> Void] {
                let refused = #expect(throws: QuireError.self, performing: operation)
                #expect(refused?.code == .badDocID)
            }
        }
        let longest = String(repeating: "é", count: 120)
        try collection.save(document: MutableDocument(id: longest))
        try collection.save(document: MutableDocument(id: "a_b"))
        #expect(try collection.document(id: longest) != nil)
        #expect(collection.count == 2)
    }

    // MARK: The save path

    @Test func sequencesAreNeverReusedAfterTheLatestDocumentIsPurged() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.save(document: MutableDocument(id: "a"))
        let b = MutableDocument(id: "b")
        try collection.save(document: b)
        #expect(b.sequence == 2)
        try collection.purge(id: "b")
        #expect(try collection.lastSequence() == 2)
        let c = MutableDocument(id: "c")
        try collection.save(document: c)
        #expect(c.sequence == 3)
        // Reopened: the floor in the catalog still counts the purged sequence.
        try collection.purge(id: "c")
        try collection.database.close()
        let reopened = try #require(
            try Database(name: "col", config: DatabaseConfiguration(directory: directory.path))
                .collection(name: "items", scope: "store"))
        #expect(try reopened.lastSequence() == 3)
        let d = MutableDocument(id: "d")
        try reopened.save(document: d)
        #expect(d.sequence == 4)
    }

    @Test func aBatchSeesItsOwnSequencesAndARollbackKeepsNone() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.save(document: MutableDocument(id: "a"))
        try collection.database.inBatch {
            try collection.save(document: MutableDocument(id: "b"))
            try collection.save(document: MutableDocument(id: "c"))
            #expect(try collection.lastSequence() == 3)
        }
        #expect(try collection.lastSequence() == 3)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try collection.database.inBatch {
                try collection.save(document: MutableDocument(id: "d"))
                throw Stop()
            }
        }
        #expect(try collection.document(id: "d") == nil)
        let e = MutableDocument(id: "e")
        try collection.save(document: e)
        #expect(e.sequence == 4)
        #expect(try collection.changes(since: 0).map(\.sequence) == [1, 2, 3, 4])
    }

    @Test func aNewObjectOverAStoredDocumentIsAConflict() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        let first = MutableDocument(id: "x", data: ["v": 1])
        try collection.save(document: first)
        // A second object that never read "x": the insert finds the key taken.
        let rival = MutableDocument(id: "x", data: ["v": 2])
        #expect(try collection.save(document: rival, concurrencyControl: .failOnConflict) == false)
        #expect(rival.revisionID == nil)
        #expect(try collection.document(id: "x")?.int(forKey: "v") == 1)
        try collection.save(document: rival)
        #expect(rival.revisionID?.hasPrefix("2-") == true)
        #expect(rival.sequence == 2)
        #expect(try collection.document(id: "x")?.int(forKey: "v") == 2)
        // Over a tombstone, a new object revives the ID on top of the deleted revision.
        try collection.delete(document: rival)
        let revived = MutableDocument(id: "x", data: ["v": 3])
        #expect(try collection.save(document: revived, concurrencyControl: .failOnConflict))
        #expect(revived.revisionID?.hasPrefix("4-") == true)
        #expect(try collection.document(id: "x")?.int(forKey: "v") == 3)
    }

    @Test func documentsMadeFromJSONSaveAsTheSameDataDoes() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        let json = #"{ "z": [1, 2.5, "\u00e9\/"], "a": {"y": null, "b": true}, "n": -0 }"#
        let fromJSON = try MutableDocument(id: "j", json: json)
        try collection.save(document: fromJSON)
        let fromData = MutableDocument(
            id: "d", data: ["z": [1, 2.5, "é/"], "a": ["y": NSNull(), "b": true], "n": -0.0])
        try collection.save(document: fromData)
        // Same parent (none), same body: the same digest.
        #expect(fromJSON.revisionID == fromData.revisionID)
        let read = try #require(try collection.document(id: "j"))
        #expect(read.toJSON() == #"{"a":{"b":true,"y":null},"n":-0.0,"z":[1,2.5,"é/"]}"#)
        // A document made from JSON and then changed is saved from its changed content.
        let changed = try MutableDocument(id: "c", json: json)
        changed.setValue(1, forKey: "new")
        try collection.save(document: changed)
        #expect(try collection.document(id: "c")?.int(forKey: "new") == 1)
        #expect(try collection.document(id: "c")?.array(forKey: "z")?.count == 3)
        // Reserved keys are refused on this path too.
        let reserved = try MutableDocument(id: "r", json: #"{"_rev":"1-a"}"#)
        let error = #expect(throws: QuireError.self) { try collection.save(document: reserved) }
        #expect(error?.code == .corruptRevisionData)
    }

    @Test func sequencesCountWhatAnotherConnectionCommitted() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.save(document: MutableDocument(id: "a"))
        try collection.save(document: MutableDocument(id: "b"))
        // Another writer (another process, say) commits a row numbered 3.
        var other: OpaquePointer?
        #expect(sqlite3_open_v2(collection.database.filePath, &other, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
        defer { sqlite3_close_v2(other) }
        sqlite3_busy_timeout(other, 5_000)
        let insert =
            "INSERT INTO \(StoreSchema.tableName(collection.id)) (key, sequence, revid, body) VALUES ('x', 3, '1-x', '{}')"
        #expect(sqlite3_exec(other, insert, nil, nil, nil) == SQLITE_OK)
        let c = MutableDocument(id: "c")
        try collection.save(document: c)
        #expect(c.sequence == 4)
        #expect(try collection.lastSequence() == 4)
    }
}
