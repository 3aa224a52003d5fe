import Foundation
import Quire

/// Quire, used the way an app would: `MutableDocument(id:json:)` and `save(document:)`, reads
/// with `document(id:)` and typed getters.
public final class QuireEngine: StorageEngine {
    let database: Database
    let collection: Quire.Collection
    private var isClosed = false

    /// Opens a new database in `directory`.
    public init(directory: URL) throws {
        database = try Database(name: "bench", config: DatabaseConfiguration(directory: directory.path))
        collection = try database.defaultCollection()
    }

    /// Saves every document inside one `inBatch`.
    public func saveInOneTransaction(_ documents: [SampleDocument]) throws {
        try database.inBatch {
            for document in documents {
                try collection.save(document: MutableDocument(id: document.id, json: document.json))
            }
        }
    }

    /// Saves each document with its own `save(document:)`, which is one transaction.
    public func saveEachInItsOwnTransaction(_ documents: [SampleDocument]) throws {
        for document in documents {
            try collection.save(document: MutableDocument(id: document.id, json: document.json))
        }
    }

    /// Quire's database object is thread-safe: every reader shares it (and its reader pool).
    public func makeReader(property: ReadProperty) throws -> any PropertyReader {
        Reader(collection: collection, property: property)
    }

    /// Closes the database (SQLite folds the WAL into the file when its last connection
    /// closes; a checkpoint cannot run inside Quire's write transactions), then measures.
    public func bytesOnDisk() throws -> Int {
        try close()
        return try fileSize(database.filePath)
    }

    /// Closes the database.
    public func close() throws {
        guard !isClosed else { return }
        isClosed = true
        try database.close()
    }

    private final class Reader: PropertyReader {
        let collection: Quire.Collection
        let property: ReadProperty

        init(collection: Quire.Collection, property: ReadProperty) {
            self.collection = collection
            self.property = property
        }

        func read(id: String) throws -> Int {
            guard let document = try collection.document(id: id) else {
                throw WorkloadFailure("document \(id) not found")
            }
            switch property {
            case .state:
                return document.dictionary(forKey: "contact")?.dictionary(forKey: "address")?.string(forKey: "state")?
                    .utf8
                    .count ?? 0
            case .city:
                return document.string(forKey: "city")?.utf8.count ?? 0
            }
        }
    }
}
