import Foundation

/// The store's catalogue (`quire_collections`, the `docs_<id>` tables, `quire_indexes`,
/// `quire_info`) as the fixture tools read and stamp it, so that no module outside Quire
/// writes SQL against the store's tables.
package enum StoreCatalog {
    /// One collection: its full name, live documents and their bodies' bytes.
    package struct CollectionFacts: Sendable, Equatable {
        package var fullName: String
        package var liveDocuments: Int
        package var bodyBytes: Int64
    }

    /// One index as the catalogue stores it: `kind` is `value` or `fulltext`, `definition`
    /// the JSON object of its expressions and options.
    package struct IndexRow: Sendable, Equatable {
        /// The collection's full name.
        package var collection: String
        package var name: String
        package var kind: String
        package var definition: String
    }

    /// What a database file holds.
    package struct Contents: Sendable, Equatable {
        /// What SQLite's integrity check found; when not empty, nothing else was read.
        package var integrityProblems: [String] = []
        /// `PRAGMA user_version`.
        package var schemaVersion: Int64 = 0
        /// Every collection, in catalogue order.
        package var collections: [CollectionFacts] = []
        /// Every index, by collection full name then index name.
        package var indexes: [IndexRow] = []
        package var privateUUID: String?
    }

    /// Reads the SQLite file at `path` without changing a byte of it (no core, no migration,
    /// no journal switch; see ``Database/withReadOnlyConnection(path:_:)``).
    ///
    /// - Throws: `notFound` when there is no file at `path`; SQLite errors when it is not a
    ///   database or lacks the catalogue tables.
    package static func probe(path: String) throws -> Contents {
        try Database.withReadOnlyConnection(path: path) { connection in
            var contents = Contents()
            contents.integrityProblems = try connection.integrityProblems()
            guard contents.integrityProblems.isEmpty else { return contents }
            contents.schemaVersion = try connection.scalarInt("PRAGMA user_version") ?? 0
            let catalog = try connection.query("SELECT id, scope, name FROM quire_collections ORDER BY id") { row in
                (id: row.int64(at: 0), name: "\(row.text(at: 1) ?? "").\(row.text(at: 2) ?? "")")
            }
            for entry in catalog {
                let facts = try connection.query(
                    "SELECT count(*), coalesce(sum(length(CAST(body AS BLOB))), 0) FROM docs_\(entry.id) WHERE flags & 1 = 0"
                ) { row in (Int(row.int64(at: 0)), row.int64(at: 1)) }
                contents.collections.append(
                    CollectionFacts(
                        fullName: entry.name, liveDocuments: facts.first?.0 ?? 0, bodyBytes: facts.first?.1 ?? 0))
            }
            contents.indexes = try connection.query(
                """
                SELECT c.scope || '.' || c.name, i.name, i.kind, i.definition FROM quire_indexes i
                JOIN quire_collections c ON c.id = i.collection_id ORDER BY 1, 2
                """
            ) { row in
                IndexRow(
                    collection: row.text(at: 0) ?? "", name: row.text(at: 1) ?? "", kind: row.text(at: 2) ?? "",
                    definition: row.text(at: 3) ?? "")
            }
            contents.privateUUID = try connection.scalarText("SELECT value FROM quire_info WHERE key = 'privateUUID'")
            return contents
        }
    }

    /// Gives `database` the private and public UUIDs a reproducible build chose, in one
    /// transaction.
    ///
    /// - Throws: `unexpectedError` when the database has no such rows in `quire_info` (every
    ///   database Quire creates has them).
    package static func stamp(_ database: Database, privateUUID: String, publicUUID: String) throws {
        try database.write { connection in
            for (key, value) in [("privateUUID", privateUUID), ("publicUUID", publicUUID)] {
                try connection.run("UPDATE quire_info SET value = ? WHERE key = ?", [.text(value), .text(key)])
                guard connection.changes == 1 else {
                    throw QuireError(.unexpectedError, "the database has no '\(key)' in quire_info to set")
                }
            }
        }
    }
}
