import Foundation
import Quire

/// What a fixture's database file holds, read without changing a byte of it.
///
/// This is the one place outside `Quire` that knows the store's catalog tables
/// (`quire_collections`, `docs_<id>` with the deleted flag in bit 0 of `flags`,
/// `quire_indexes`, `quire_info`); it reads them so a fixture can be checked without
/// opening it as a database, which would migrate it and switch its journal.
struct FixtureDatabaseProbe {
    /// One collection: its full name, live documents and their bodies' bytes.
    struct CollectionFacts: Equatable {
        var name: String
        var documentCount: Int
        var bodyBytes: Int64
    }

    /// What SQLite's integrity check found; empty when the file is sound.
    var integrityProblems: [String] = []
    /// Every collection, by full name.
    var collections: [CollectionFacts] = []
    /// Every index as `(collection full name, index name)`.
    var indexes: [(collection: String, name: String)] = []
    /// The private UUID.
    var privateUUID: String?

    /// Reads the SQLite file at `path` read-only.
    init(path: String) throws {
        try Database.withReadOnlyConnection(path: path) { connection in
            integrityProblems = try connection.integrityProblems()
            guard integrityProblems.isEmpty else { return }
            let catalog = try connection.query("SELECT id, scope, name FROM quire_collections ORDER BY id") { row in
                (id: row.int64(at: 0), name: "\(row.text(at: 1) ?? "").\(row.text(at: 2) ?? "")")
            }
            for entry in catalog {
                let facts = try connection.query(
                    "SELECT count(*), coalesce(sum(length(CAST(body AS BLOB))), 0) FROM docs_\(entry.id) WHERE flags & 1 = 0"
                ) { row in (Int(row.int64(at: 0)), row.int64(at: 1)) }
                collections.append(
                    CollectionFacts(name: entry.name, documentCount: facts.first?.0 ?? 0, bodyBytes: facts.first?.1 ?? 0))
            }
            indexes = try connection.query(
                """
                SELECT c.scope || '.' || c.name, i.name FROM quire_indexes i
                JOIN quire_collections c ON c.id = i.collection_id ORDER BY 1, 2
                """
            ) { row in (row.text(at: 0) ?? "", row.text(at: 1) ?? "") }
            privateUUID = try connection.scalarText("SELECT value FROM quire_info WHERE key = 'privateUUID'")
        }
    }
}
