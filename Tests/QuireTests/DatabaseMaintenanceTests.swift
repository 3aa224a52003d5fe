import Foundation
import Testing

@testable import Quire

@Suite struct DatabaseMaintenanceTests {
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
        try database.close(onClosed: {})
        let before = fileSize(database.filePath)

        try database.performMaintenance(type: .compact)
        #expect(fileSize(database.filePath) < before / 4)
        #expect(fileSize(database.filePath + "-wal") == 0)
        #expect(collection.count == 10)
        #expect(try collection.document(id: "doc-499")?.string(forKey: "text") == filler)
        try database.performMaintenance(type: .integrityCheck)
    }

    @Test func compactFromInsideABatchThrowsInsteadOfWaitingForItself() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "db", config: DatabaseConfiguration(directory: directory.path))
        let error = #expect(throws: QuireError.self) {
            try database.inBatch { try database.performMaintenance(type: .compact) }
        }
        #expect(error?.code == .transactionNotClosed)
        try database.close()
        #expect(throws: QuireError.self) { try database.performMaintenance(type: .integrityCheck) }
    }

    @Test func aReadOnlyConnectionReadsWithoutChangingTheFile() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "db", config: DatabaseConfiguration(directory: directory.path))
        try database.defaultCollection().save(document: MutableDocument(id: "a", data: ["n": 1]))
        try database.performMaintenance(type: .compact)
        let path = database.filePath
        try database.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        let problems = try Database.withReadOnlyConnection(path: path) { connection in
            #expect(try connection.scalarInt("SELECT count(*) FROM docs_1") == 1)
            #expect(throws: QuireError.self) { try connection.execute("DELETE FROM docs_1") }
            return try connection.integrityProblems()
        }
        #expect(problems.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)

        let missing = #expect(throws: QuireError.self) {
            try Database.withReadOnlyConnection(path: directory.file("none.sqlite3")) { _ in }
        }
        #expect(missing?.code == .notFound)
        #expect(!FileManager.default.fileExists(atPath: directory.file("none.sqlite3")))
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
