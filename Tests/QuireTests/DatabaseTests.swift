import Foundation
import Testing

@testable import Quire

@Suite struct DatabaseTests {
    @Test func aNamedDatabaseIsAFolderWithTheSQLiteFileAndAttachments() throws {
        let directory = TemporaryDirectory()
        let config = DatabaseConfiguration(directory: directory.path)
        #expect(!Database.exists(withName: "db", inDirectory: directory.path))
        let database = try Database(name: "db", config: config)
        #expect(database.name == "db")
        #expect(database.path == directory.path + "/db.quire/")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/db.quire/db.sqlite3"))
        #expect(FileManager.default.fileExists(atPath: directory.path + "/db.quire/Attachments"))
        #expect(Database.exists(withName: "db", inDirectory: directory.path))
        #expect(database.isOpened)
        let byPath = Database(path: directory.path + "/db.quire/db.sqlite3")
        #expect(byPath.core === database.core)
    }

    @Test func theDefaultDirectoryIsQuireUnderTheWorkingDirectory() {
        #expect(DatabaseConfiguration().directory == FileManager.default.currentDirectoryPath + "/Quire")
    }

    @Test func uuidsAreCreatedOnceAndDifferBetweenDatabases() throws {
        let directory = TemporaryDirectory()
        let config = DatabaseConfiguration(directory: directory.path)
        let first = try Database(name: "one", config: config)
        let second = try Database(name: "two", config: config)
        #expect(try first.publicUUID() != second.publicUUID())
        #expect(try first.privateUUID() != first.publicUUID())
        #expect(UUID(uuidString: try first.privateUUID()) != nil)
    }

    @Test func staticDeleteRefusesAnOpenDatabaseAndRemovesAClosedOne() throws {
        let directory = TemporaryDirectory()
        let config = DatabaseConfiguration(directory: directory.path)
        let database = try Database(name: "gone", config: config)
        let busy = #expect(throws: QuireError.self) {
            try Database.delete(withName: "gone", inDirectory: directory.path)
        }
        #expect(busy?.code == .busy)
        try database.close()
        try Database.delete(withName: "gone", inDirectory: directory.path)
        #expect(!Database.exists(withName: "gone", inDirectory: directory.path))
        // Couchbase Lite's testDeleteNonExistingDB: deleting what is not there does nothing.
        try Database.delete(withName: "gone", inDirectory: directory.path)
    }

    @Test func invalidDatabaseNamesAreRejected() {
        let directory = TemporaryDirectory()
        for name in ["", "a/b", ".."] {
            let error = #expect(throws: QuireError.self) {
                try Database(name: name, config: DatabaseConfiguration(directory: directory.path))
            }
            #expect(error?.code == .invalidParameter)
        }
    }

    @Test func aBatchIsAllOrNothing() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "batch", config: DatabaseConfiguration(directory: directory.path))
        let people = try database.createCollection(name: "people", scope: "app")
        let other = try database.defaultCollection()
        struct Halfway: Error {}
        #expect(throws: Halfway.self) {
            try database.inBatch {
                for n in 0..<10 { try people.save(document: MutableDocument(id: "p\(n)")) }
                try other.save(document: MutableDocument(id: "o"))
                throw Halfway()
            }
        }
        #expect(people.count == 0)
        #expect(other.count == 0)
        #expect(try people.document(id: "p0") == nil)

        let observer = Database(path: database.filePath)
        let inside = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let batch = TestThread {
            try database.inBatch {
                for n in 0..<10 { try people.save(document: MutableDocument(id: "p\(n)")) }
                inside.signal()
                proceed.wait()
            }
        }
        inside.wait()
        let seenDuring = try observer.read { try $0.scalarInt("SELECT count(*) FROM \(people.table)") }
        proceed.signal()
        try batch.join()
        #expect(seenDuring == 0)
        #expect(people.count == 10)
    }

    @Test func readsInsideABatchSeeItsOwnChanges() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "own", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        try database.inBatch {
            try collection.save(document: MutableDocument(id: "a", data: ["v": 1]))
            #expect(try collection.document(id: "a")?.int(forKey: "v") == 1)
            #expect(collection.count == 1)
        }
    }
}
