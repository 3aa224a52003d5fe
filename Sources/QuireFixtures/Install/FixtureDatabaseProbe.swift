import Foundation
import Quire

/// What a fixture's database file holds, read without changing a byte of it.
///
/// The store's catalogue comes from ``StoreCatalog/probe(path:)``, which reads the file
/// without opening it as a database (that would migrate it and switch its journal); this
/// maps it to the manifest's terms.
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
        let contents = try StoreCatalog.probe(path: path)
        integrityProblems = contents.integrityProblems
        schemaVersion = contents.schemaVersion
        collections = contents.collections.map {
            CollectionFacts(name: $0.fullName, documentCount: $0.liveDocuments, bodyBytes: $0.bodyBytes)
        }
        indexes = contents.indexes.map {
            Self.indexFacts(collection: $0.collection, name: $0.name, kind: $0.kind, definition: $0.definition)
        }
        privateUUID = contents.privateUUID
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
