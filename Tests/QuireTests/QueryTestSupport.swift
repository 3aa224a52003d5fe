import Foundation

@testable import Quire

/// A database with a manual clock and one collection, for query tests.
struct QueryFixture {
    let directory = TemporaryDirectory("quire-query")
    let clock = ManualClock()
    let database: Database
    let collection: Collection

    init(name: String = "q", collection: String = "items", scope: String = "store") throws {
        database = try Database(name: name, config: DatabaseConfiguration(directory: directory.path, clock: clock))
        self.collection = try database.createCollection(name: collection, scope: scope)
    }

    /// Saves documents given as JSON text, keyed by ID.
    func save(_ documents: [String: String], in target: Collection? = nil) throws {
        let into = target ?? collection
        try database.inBatch {
            for (id, json) in documents.sorted(by: { $0.key < $1.key }) {
                try into.save(document: MutableDocument(id: id, json: json))
            }
        }
    }
}

extension Query {
    /// Every row as canonical JSON text.
    func rows() throws -> [String] {
        try execute().allResults().map { $0.toJSON() }
    }
}
