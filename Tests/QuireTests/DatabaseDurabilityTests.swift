import Foundation
import Testing

@testable import Quire

/// `syncCommittedWrites()` flushes what is committed to disk, for CouchDB's
/// `_ensure_full_commit`.
@Suite struct DatabaseDurabilityTests {
    @Test func flushesTheLogAndTheFileAndRefusesAClosedDatabase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(name: "db", config: DatabaseConfiguration(directory: directory.path))
        try database.defaultCollection().save(document: MutableDocument(id: "a", data: ["n": 1]))
        // The write-ahead log and the database file.
        #expect(try database.syncCommittedWrites() == 2)
        try database.close()
        #expect(throws: QuireError.self) { try database.syncCommittedWrites() }
    }
}
