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

    /// One index as the store's catalogue defines it.
    struct IndexFacts: Equatable {
        /// The collection's full name.
        var collection: String
        var name: String
        /// `value`, `fullText`, or nil for a kind this reader does not know (the raw text is in `rawKind`).
        var kind: FixtureManifest.IndexDescription.Kind?
        var rawKind: String
        var expressions: [String]
        /// Full-text only.
        var ignoreAccents: Bool?
        /// Full-text only; nil when the index stems no language.
        var language: String?
    }

    /// What SQLite's integrity check found; empty when the file is sound.
    var integrityProblems: [String] = []
    /// Every collection, by full name.
    var collections: [CollectionFacts] = []
    /// Every index, by collection full name then index name.
    var indexes: [IndexFacts] = []
    /// The private UUID.
    var privateUUID: String?
    /// The store's schema version, `PRAGMA user_version`.
    var schemaVersion: Int64 = 0

    /// Reads the SQLite file at `path` read-only.
    init(path: String) throws {
        try Database.withReadOnlyConnection(path: path) { connection in
            integrityProblems = try connection.integrityProblems()
            guard integrityProblems.isEmpty else { return }
            schemaVersion = try connection.scalarInt("PRAGMA user_version") ?? 0
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
                SELECT c.scope || '.' || c.name, i.name, i.kind, i.definition FROM quire_indexes i
                JOIN quire_collections c ON c.id = i.collection_id ORDER BY 1, 2
                """
            ) { row in
                Self.indexFacts(
                    collection: row.text(at: 0) ?? "", name: row.text(at: 1) ?? "", kind: row.text(at: 2) ?? "",
                    definition: row.text(at: 3) ?? "")
            }
            privateUUID = try connection.scalarText("SELECT value FROM quire_info WHERE key = 'privateUUID'")
        }
    }

    /// Reads a catalogue row; `definition` is the JSON object Quire stores
    /// (`expressions`, and for full-text `ignoreAccents` and `language`).
    static func indexFacts(collection: String, name: String, kind: String, definition: String) -> IndexFacts {
        let object = (try? JSONSerialization.jsonObject(with: Data(definition.utf8))) as? [String: Any] ?? [:]
        let mapped: FixtureManifest.IndexDescription.Kind? =
            switch kind {
            case "value": .value
            case "fulltext": .fullText
            default: nil
            }
        return IndexFacts(
            collection: collection, name: name, kind: mapped, rawKind: kind,
            expressions: object["expressions"] as? [String] ?? [],
            ignoreAccents: object["ignoreAccents"] as? Bool,
            language: object["language"] as? String)
    }
}
