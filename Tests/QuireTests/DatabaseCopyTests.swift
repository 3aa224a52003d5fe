import Foundation
import Testing

@testable import Quire

@Suite struct DatabaseCopyTests {
    @Test func aCopyGetsNewUUIDsAndRemembersThePreviousOnes() throws {
        let directory = TemporaryDirectory()
        let config = DatabaseConfiguration(directory: directory.path)
        let source = try Database(name: "source", config: config)
        try source.createCollection(name: "items", scope: "app").save(
            document: MutableDocument(id: "a", data: ["n": 1]))
        let sourcePrivate = try source.privateUUID()
        let sourcePublic = try source.publicUUID()
        try source.close()

        try Database.copy(fromPath: directory.path + "/source.quire", toDatabase: "first", withConfig: config)
        try Database.copy(fromPath: directory.path + "/source.quire/", toDatabase: "second", withConfig: config)
        let first = try Database(name: "first", config: config)
        let second = try Database(name: "second", config: config)
        #expect(try first.privateUUID() != sourcePrivate)
        #expect(try first.publicUUID() != sourcePublic)
        #expect(try first.privateUUID() != second.privateUUID())
        #expect(try first.previousPrivateUUIDs() == [sourcePrivate])
        #expect(try first.collection(name: "items", scope: "app")?.document(id: "a")?.int(forKey: "n") == 1)
        let firstPrivate = try first.privateUUID()
        try first.close()

        try Database.copy(fromPath: directory.path + "/first.quire", toDatabase: "third", withConfig: config)
        let third = try Database(name: "third", config: config)
        #expect(try third.previousPrivateUUIDs() == [firstPrivate, sourcePrivate])
        let wal = directory.path + "/third.quire/db.sqlite3-wal"
        let walSize = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(walSize == 0)
    }

    @Test func copyingOverAnExistingDatabaseFailsWithEEXIST() throws {
        let directory = TemporaryDirectory()
        let config = DatabaseConfiguration(directory: directory.path)
        try Database(name: "source", config: config).close()
        let existing = try Database(name: "taken", config: config)
        try existing.defaultCollection().save(document: MutableDocument(id: "keep"))
        let error = #expect(throws: QuireError.self) {
            try Database.copy(fromPath: directory.path + "/source.quire", toDatabase: "taken", withConfig: config)
        }
        #expect(error?.domain == .posix)
        #expect(error?.underlyingCode == EEXIST)
        #expect(try existing.defaultCollection().document(id: "keep") != nil)
    }

    /// LiteCore c4DatabaseTest "Database copy": the source cannot be open to copy from.
    @Test func anOpenSourceIsBusyUntilClosed() throws {
        let directory = TemporaryDirectory()
        let config = DatabaseConfiguration(directory: directory.path)
        let source = try Database(name: "source", config: config)
        try source.defaultCollection().save(document: MutableDocument(id: "a"))
        let error = #expect(throws: QuireError.self) {
            try Database.copy(fromPath: source.path, toDatabase: "copy", withConfig: config)
        }
        #expect(error?.code == .busy)
        #expect(!Database.exists(withName: "copy", inDirectory: directory.path))
        try source.close()
        try Database.copy(fromPath: source.path, toDatabase: "copy", withConfig: config)
        let copy = try Database(name: "copy", config: config)
        defer { try? copy.close() }
        #expect(try copy.defaultCollection().document(id: "a") != nil)
    }

    @Test func aMissingSourceIsNotFound() throws {
        let directory = TemporaryDirectory()
        let error = #expect(throws: QuireError.self) {
            try Database.copy(
                fromPath: directory.path + "/nothing.quire", toDatabase: "x",
                withConfig: DatabaseConfiguration(directory: directory.path))
        }
        #expect(error?.code == .notFound)
        #expect(!Database.exists(withName: "x", inDirectory: directory.path))
    }

    @Test func aSourceBeingWrittenIsCopiedAsOneConsistentSnapshot() throws {
        let directory = TemporaryDirectory()
        let config = DatabaseConfiguration(directory: directory.path)
        let source = try Database(name: "busy", config: config)
        let collection = try source.defaultCollection()
        let stop = EventLog()
        let writer = TestThread {
            var batch = 0
            while stop.events.isEmpty && batch < 2_000 {
                try source.inBatch {
                    for n in 0..<10 {
                        let document = MutableDocument(id: "b\(batch)-\(n)")
                        document.setBlob(
                            Blob(contentType: "text/plain", data: Data("blob b\(batch)-\(n)".utf8)), forKey: "file")
                        try collection.save(document: document)
                    }
                }
                batch += 1
            }
        }
        waitUntil { collection.count >= 50 }
        for copy in 0..<3 {
            try Database.copySnapshot(fromPath: source.path, toDatabase: "copy\(copy)", withConfig: config)
        }
        stop.record("stop")
        try writer.join()
        for copy in 0..<3 {
            let copied = try Database(name: "copy\(copy)", config: config)
            let count = try copied.defaultCollection().count
            #expect(count >= 50)
            #expect(count % 10 == 0)
            #expect(try copied.read { try $0.scalarText("PRAGMA integrity_check") } == "ok")
            // Batches commit in order, so the copy holds exactly the first count / 10 of them.
            var unreadable: [String] = []
            for batch in 0..<count / 10 {
                for n in 0..<10 {
                    let id = "b\(batch)-\(n)"
                    let blob = try copied.defaultCollection().document(id: id)?.blob(forKey: "file")
                    if (try? blob?.readContent()) != Data("blob \(id)".utf8) { unreadable.append(id) }
                }
            }
            #expect(
                unreadable.isEmpty,
                "copy\(copy): \(unreadable.count) of \(count) documents lack their blob, first \(unreadable.prefix(5))")
            try copied.close()
        }
    }
}
