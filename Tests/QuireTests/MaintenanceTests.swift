import Foundation
import Testing

@testable import Quire

@Suite struct MaintenanceTests {
    private func makeDatabase(_ directory: TemporaryDirectory) throws -> Database {
        try Database(name: "upkeep", config: DatabaseConfiguration(directory: directory.path))
    }

    private func blob(_ text: String) -> Blob {
        Blob(contentType: "text/plain", data: Data(text.utf8))
    }

    private func storedDigests(_ database: Database) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: database.path + "Attachments")) ?? []
        return Set(names.compactMap(BlobStore.digest(forFileName:)))
    }

    @Test func compactionRemovesOnlyBlobsNoDocumentRefersTo() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let main = try database.defaultCollection()
        let other = try database.createCollection(name: "other", scope: "s")
        let doomed = try database.createCollection(name: "doomed", scope: "s")

        let topLevel = blob("top level")
        let inArray = blob("in an array")
        let deep = blob("deep inside")
        let shared = blob("shared with a deleted document")
        try main.save(document: MutableDocument(id: "a").setBlob(topLevel, forKey: "b"))
        try other.save(document: MutableDocument(id: "b", data: ["list": ["x", inArray]]))
        try main.save(document: MutableDocument(id: "c", data: ["one": ["two": ["three": [deep]]]]))
        try main.save(document: MutableDocument(id: "d").setBlob(shared, forKey: "b"))
        try main.save(document: MutableDocument(id: "e").setBlob(shared, forKey: "b"))
        try main.delete(document: try #require(try main.document(id: "e")))

        let orphan = blob("saved alone")
        try database.saveBlob(blob: orphan)
        let replaced = blob("replaced by a later revision")
        let updated = MutableDocument(id: "f").setBlob(replaced, forKey: "b")
        try main.save(document: updated)
        updated.removeValue(forKey: "b")
        try main.save(document: updated)
        let ofDeleted = blob("of a deleted document")
        try other.save(document: MutableDocument(id: "g").setBlob(ofDeleted, forKey: "b"))
        try other.delete(document: try #require(try other.document(id: "g")))
        let ofPurged = blob("of a purged document")
        try main.save(document: MutableDocument(id: "h").setBlob(ofPurged, forKey: "b"))
        try main.purge(id: "h")
        let ofDeletedCollection = blob("of a deleted collection")
        try doomed.save(document: MutableDocument(id: "i").setBlob(ofDeletedCollection, forKey: "b"))
        try database.deleteCollection(name: "doomed", scope: "s")

        let attachments = database.path + "Attachments/"
        #expect(
            FileManager.default.createFile(atPath: attachments + ".left-by-a-crash.blobtmp", contents: Data("x".utf8)))
        #expect(FileManager.default.createFile(atPath: attachments + "notes.txt", contents: Data("mine".utf8)))

        let all = [topLevel, inArray, deep, shared, orphan, replaced, ofDeleted, ofPurged, ofDeletedCollection]
        #expect(storedDigests(database) == Set(all.compactMap(\.digest)))
        try database.performMaintenance(type: .compact)

        #expect(storedDigests(database) == Set([topLevel, inArray, deep, shared].compactMap(\.digest)))
        let left = try FileManager.default.contentsOfDirectory(atPath: attachments)
        #expect(left.contains("notes.txt"))
        #expect(!left.contains { $0.hasSuffix(".blobtmp") })
        #expect(try main.document(id: "a")?.blob(forKey: "b")?.readContent() == Data("top level".utf8))
        #expect(try other.document(id: "b")?.array(forKey: "list")?.blob(at: 1)?.content == Data("in an array".utf8))
        #expect(try main.document(id: "d")?.blob(forKey: "b")?.content == Data("shared with a deleted document".utf8))
        #expect(try database.getBlob(properties: orphan.properties) == nil)
        try database.performMaintenance(type: .integrityCheck)
    }

    @Test func compactionKeepsBlobsOfSavesNotCommittedYet() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let store = database.blobStore
        let pending = blob("installed, document not committed yet")
        let lease = BlobLease(store: store)
        try pending.install(into: store, lease: lease)
        try database.performMaintenance(type: .compact)
        #expect(storedDigests(database) == Set([pending.digest].compactMap { $0 }))
        lease.release()
        try database.performMaintenance(type: .compact)
        #expect(storedDigests(database).isEmpty)
    }

    @Test func compactionRunningBesideSavesNeverLosesAReferencedBlob() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let collection = try database.defaultCollection()
        let saver = TestThread {
            for index in 0..<40 {
                let content = Blob(contentType: "text/plain", data: Data("content \(index)".utf8))
                try collection.save(document: MutableDocument(id: "doc\(index)").setBlob(content, forKey: "b"))
            }
        }
        for _ in 0..<10 { try database.performMaintenance(type: .compact) }
        try saver.join()
        try database.performMaintenance(type: .compact)
        for index in 0..<40 {
            let read = try #require(try collection.document(id: "doc\(index)")?.blob(forKey: "b"))
            #expect(try read.readContent() == Data("content \(index)".utf8))
        }
        #expect(storedDigests(database).count == 40)
    }

    @Test func maintenanceNeedingTheWriterRefusesToRunInsideABatch() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        for type in [MaintenanceType.compact, .optimize, .fullOptimize] {
            do {
                try database.inBatch { try database.performMaintenance(type: type) }
                Issue.record("\(type) ran inside a batch")
            } catch let error as QuireError {
                #expect(error.code == .transactionNotClosed)
            }
        }
        try database.inBatch { try database.performMaintenance(type: .reindex) }
    }

    @Test func integrityCheckNamesDamagedBlobsAndWhoRefersToThem() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let collection = try database.createCollection(name: "files", scope: "app")
        let missing = blob("will go missing")
        let altered = blob("will be altered")
        let resized = blob("will change length")
        let healthy = blob("stays healthy")
        try collection.save(document: MutableDocument(id: "m").setBlob(missing, forKey: "b"))
        try collection.save(document: MutableDocument(id: "a", data: ["nested": ["b": altered]]))
        try collection.save(document: MutableDocument(id: "r").setBlob(resized, forKey: "b"))
        try collection.save(document: MutableDocument(id: "h").setBlob(healthy, forKey: "b"))
        try database.performMaintenance(type: .integrityCheck)

        let store = database.blobStore
        try FileManager.default.removeItem(at: try store.fileURL(forDigest: try #require(missing.digest)))
        try Data("WILL BE ALTERED".utf8).write(to: try store.fileURL(forDigest: try #require(altered.digest)))
        try Data("now longer than it was".utf8).write(to: try store.fileURL(forDigest: try #require(resized.digest)))
        do {
            try database.performMaintenance(type: .integrityCheck)
            Issue.record("damage went unnoticed")
        } catch let error as QuireError {
            #expect(error.code == .corruptData)
            #expect(error.message.contains("app.files/m"))
            #expect(error.message.contains("\(missing.digest ?? "") is missing"))
            #expect(error.message.contains("app.files/a"))
            #expect(error.message.contains("holds content with digest"))
            #expect(error.message.contains("app.files/r"))
            #expect(error.message.contains("bytes its document says"))
            #expect(!error.message.contains("app.files/h"))
        }
    }

    @Test func integrityCheckReportsADamagedDatabaseFile() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let collection = try database.defaultCollection()
        try database.inBatch {
            for index in 0..<300 {
                try collection.save(document: MutableDocument(id: "d\(index)", data: ["n": index]))
            }
        }
        let file = database.filePath
        let pageSize = try database.read { try $0.scalarInt("PRAGMA page_size") ?? 4096 }
        let pageCount = try database.read { try $0.scalarInt("PRAGMA page_count") ?? 0 }
        try database.close()

        // Scribble over the middle of the last page, a b-tree page of the documents.
        let handle = try #require(FileHandle(forUpdatingAtPath: file))
        try handle.seek(toOffset: UInt64((pageCount - 1) * pageSize + pageSize / 2))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: Int(pageSize / 4)))
        try handle.close()

        let reopened = try makeDatabase(directory)
        do {
            try reopened.performMaintenance(type: .integrityCheck)
            Issue.record("a damaged file passed the integrity check")
        } catch let error as QuireError {
            #expect(error.code == .corruptData)
            #expect(error.message.hasPrefix("integrity check of database 'upkeep' failed: SQLite: "), "\(error)")
        }
    }

    @Test func reindexAndOptimizeRun() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let collection = try database.defaultCollection()
        try database.inBatch {
            for index in 0..<50 { try collection.save(document: MutableDocument(id: "d\(index)", data: ["n": index])) }
        }
        try database.performMaintenance(type: .reindex)
        try database.performMaintenance(type: .optimize)
        try database.performMaintenance(type: .fullOptimize)
        let statistics = try database.read { try $0.scalarInt("SELECT count(*) FROM sqlite_stat1") ?? 0 }
        #expect(statistics > 0)
        #expect(MaintenanceType.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
    }

    @Test func reindexRebuildsFullTextIndexesFromTheDocuments() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let collection = try database.createCollection(name: "notes", scope: "app")
        try collection.save(document: MutableDocument(id: "a", data: ["text": "running in the park"]))
        try collection.save(document: MutableDocument(id: "b", data: ["text": "quiet evening"]))
        try collection.createIndex(withName: "words", config: FullTextIndexConfiguration(["text"]))
        let query = try database.createQuery(
            "SELECT meta().id FROM app.notes WHERE MATCH(words, 'run') ORDER BY meta().id")
        #expect(try query.execute().map { $0.string(at: 0) } == ["a"])
        // Lose the index's contents behind Quire's back.
        try database.write { connection in
            let table = try #require(try IndexCatalog.fullTextTable(connection, collection: collection, name: "words"))
            try connection.execute("DELETE FROM \(table)")
        }
        #expect(try query.execute().map { $0.string(at: 0) }.isEmpty)
        try database.performMaintenance(type: .reindex)
        #expect(try query.execute().map { $0.string(at: 0) } == ["a"])
        // Kept current afterwards, as before.
        try collection.save(document: MutableDocument(id: "c", data: ["text": "she runs"]))
        #expect(try query.execute().map { $0.string(at: 0) } == ["a", "c"])
    }

    @Test func maintenanceOfAClosedDatabaseIsNotOpen() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        try database.close()
        for type in MaintenanceType.allCases {
            do {
                try database.performMaintenance(type: type)
                Issue.record("\(type) ran on a closed database")
            } catch let error as QuireError {
                #expect(error.code == .notOpen)
            }
        }
    }

    private func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    @Test func compactShrinksTheFileLeavesNoWALAndKeepsTheData() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "big", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        let filler = String(repeating: "x", count: 2_000)
        try database.inBatch {
            for number in 0..<500 {
                try collection.save(document: MutableDocument(id: "doc-\(number)", data: ["text": filler]))
            }
        }
        try database.inBatch {
            for number in 0..<490 { try collection.purge(id: "doc-\(number)") }
        }
        let pages = { try database.read { try $0.scalarInt("PRAGMA page_count") ?? 0 } }
        let freePages = { try database.read { try $0.scalarInt("PRAGMA freelist_count") ?? 0 } }
        let pagesBefore = try pages()
        #expect(try freePages() > 0)
        try database.close(onClosed: {})
        let before = fileSize(database.filePath)

        try database.performMaintenance(type: .compact)
        #expect(fileSize(database.filePath) < before / 4)
        #expect(try pages() < pagesBefore)
        #expect(try freePages() == 0)
        #expect(fileSize(database.filePath + "-wal") == 0)
        #expect(collection.count == 10)
        #expect(try collection.document(id: "doc-499")?.string(forKey: "text") == filler)
        try database.performMaintenance(type: .integrityCheck)
    }

    @Test func theIntegrityCheckReportsDamage() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "db", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        try database.inBatch {
            for number in 0..<300 {
                try collection.save(document: MutableDocument(id: "doc-\(number)", data: ["n": number]))
            }
        }
        try database.performMaintenance(type: .compact)
        let path = database.filePath
        try database.close()
        // Overwrite the whole third page, a b-tree page of the schema or the documents.
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let pageSize = try Database.withReadOnlyConnection(path: path) { try $0.scalarInt("PRAGMA page_size") } ?? 4096
        try file.seek(toOffset: UInt64(pageSize) * 2)
        try file.write(contentsOf: Data(repeating: 0xA5, count: Int(pageSize)))
        try file.close()
        let problems = try? Database.withReadOnlyConnection(path: path) { try $0.integrityProblems() }
        #expect(problems.map { !$0.isEmpty } ?? true)
    }
}
