import Foundation
import GRDB

/// GRDB's `DatabaseQueue` (which links against the system SQLite here), storing each document
/// as a Codable record of ID and JSON text, read back with a cached statement and decoded with
/// `JSONDecoder` into a Codable type that reaches `contact.address.state`.
public final class GRDBEngine: StorageEngine {
    let queue: DatabaseQueue

    /// Creates the table in a new file in `directory`.
    public init(directory: URL) throws {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.foreignKeysEnabled = false
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous=NORMAL; PRAGMA temp_store=FILE")
        }
        queue = try DatabaseQueue(
            path: directory.appendingPathComponent("grdb.sqlite3").path, configuration: configuration)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS docs (key TEXT NOT NULL UNIQUE, body TEXT NOT NULL)")
        }
    }

    /// One `write` (one transaction) inserting every record.
    public func saveInOneTransaction(_ documents: [SampleDocument]) throws {
        try queue.write { db in
            for document in documents {
                try DocumentRow(key: document.id, body: document.json).insert(db)
            }
        }
    }

    /// One `write` per record.
    public func saveEachInItsOwnTransaction(_ documents: [SampleDocument]) throws {
        for document in documents {
            try queue.write { db in
                try DocumentRow(key: document.id, body: document.json).insert(db)
            }
        }
    }

    /// Readers share the queue, which serializes them: that is `DatabaseQueue`'s contract.
    public func makeReader(property: ReadProperty) throws -> any PropertyReader {
        Reader(queue: queue, property: property)
    }

    public func bytesOnDisk() throws -> Int {
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        return try fileSize(queue.path)
    }

    /// Closes the queue.
    public func close() throws {
        try queue.close()
    }

    private final class Reader: PropertyReader {
        let queue: DatabaseQueue
        let property: ReadProperty
        let decoder = JSONDecoder()

        init(queue: DatabaseQueue, property: ReadProperty) {
            self.queue = queue
            self.property = property
        }

        func read(id: String) throws -> Int {
            let row = try queue.read { db in
                try DocumentRow.fetchOne(
                    try db.cachedStatement(sql: "SELECT key, body FROM docs WHERE key = ?"), arguments: [id])
            }
            guard let row else { throw WorkloadFailure("document \(id) not found") }
            switch property {
            case .state:
                return try decoder.decode(StateProbe.self, from: Data(row.body.utf8)).contact.address.state.utf8.count
            case .city: return try decoder.decode(CityProbe.self, from: Data(row.body.utf8)).city.utf8.count
            }
        }
    }
}

/// A document row: its ID and its JSON body.
struct DocumentRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "docs"
    var key: String
    var body: String
}

/// The part of a person the read workload looks at.
struct CityProbe: Decodable {
    var city: String
}

struct StateProbe: Decodable {
    struct Contact: Decodable {
        struct Address: Decodable {
            var state: String
        }

        var address: Address
    }

    var contact: Contact
}
