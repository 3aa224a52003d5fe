import Foundation
import Quire

@testable import QuireSync

/// A database in its own temporary folder, removed on release.
final class SyncTestDatabase: @unchecked Sendable {
    let directory: URL
    let database: Database
    let collection: Collection

    init(name: String = "local") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-sync-\(UUID().uuidString)")
        database = try Database(name: name, config: DatabaseConfiguration(directory: directory.path))
        collection = try database.defaultCollection()
    }

    /// Opens another database in the same folder.
    func sibling(_ name: String) throws -> Database {
        try Database(name: name, config: DatabaseConfiguration(directory: directory.path))
    }

    @discardableResult
    func save(_ id: String, _ json: String, in collection: Collection? = nil) throws -> MutableDocument {
        let document = try MutableDocument(id: id, json: json)
        try (collection ?? self.collection).save(document: document)
        return document
    }

    deinit {
        try? database.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
