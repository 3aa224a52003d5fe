import Foundation
import Testing

@testable import Quire

/// Damaged files get a clear error or a damage report, never a crash.
@Suite struct DamagedDatabaseTests {
    private func makeDatabase(_ directory: TemporaryDirectory, documents: Int = 2_000) throws -> String {
        let database = try Database(name: "victim", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        try database.inBatch {
            for n in 0..<documents {
                try collection.save(
                    document: MutableDocument(
                        id: "d\(n)", data: ["n": n, "text": String(repeating: "lorem ", count: 20)]))
            }
        }
        try database.close()
        return directory.path + "/victim.quire/db.sqlite3"
    }

    private func damage(_ file: String, at offset: UInt64, with bytes: [UInt8]) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    /// Opens the database and reads everything; returns the error met, if any.
    private func openAndReadAll(_ directory: TemporaryDirectory) -> QuireError? {
        do {
            let database = try Database(name: "victim", config: DatabaseConfiguration(directory: directory.path))
            defer { try? database.close() }
            let collection = try database.defaultCollection()
            for n in 0..<2_000 { _ = try collection.document(id: "d\(n)") }
            let check = try database.read { try $0.scalarText("PRAGMA integrity_check") }
            if check != "ok" { return QuireError(.corruptData, check ?? "integrity check failed") }
            return nil
        } catch let error as QuireError {
            return error
        } catch {
            return QuireError(.unexpectedError, "\(error)")
        }
    }

    @Test func aFileThatIsNotADatabaseIsRefusedOnOpen() throws {
        let directory = TemporaryDirectory()
        let folder = directory.path + "/victim.quire"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("this is a text file, not a database\n".utf8).write(to: URL(fileURLWithPath: folder + "/db.sqlite3"))
        let error = #expect(throws: QuireError.self) {
            try Database(name: "victim", config: DatabaseConfiguration(directory: directory.path))
        }
        #expect(error?.code == .unreadableDatabase)
        #expect(error?.message.contains("db.sqlite3") == true)
    }

    @Test func aWrongHeaderIsRefusedOnOpen() throws {
        let directory = TemporaryDirectory()
        let file = try makeDatabase(directory)
        try damage(file, at: 0, with: Array("Not SQLite at all".utf8))
        let error = openAndReadAll(directory)
        #expect(error?.code == .unreadableDatabase)
    }

    @Test func aTruncatedFileIsReportedNotCrashedOn() throws {
        let directory = TemporaryDirectory()
        let file = try makeDatabase(directory)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: UInt64(size / 3))
        try handle.close()
        let error = openAndReadAll(directory)
        #expect(error != nil)
        #expect(error?.domain == .sqlite || error?.code == .corruptData)
    }

    @Test func overwrittenPagesAreReportedNotCrashedOn() throws {
        let directory = TemporaryDirectory()
        let file = try makeDatabase(directory)
        var random = SeededGenerator(seed: 7)
        let garbage = (0..<16_384).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        try damage(file, at: 8_192, with: garbage)
        let error = openAndReadAll(directory)
        #expect(error != nil)
    }
}
