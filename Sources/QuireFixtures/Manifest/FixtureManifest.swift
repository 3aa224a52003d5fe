import Foundation

/// What a fixture archive holds, written as `manifest.json` inside it.
///
/// The JSON is stable: keys sorted, arrays in a canonical order (see ``encoded()``), so the
/// same fixture always yields the same bytes. ``decoded(from:)`` checks every field and says
/// which one is wrong.
public struct FixtureManifest: Codable, Sendable, Equatable {
    /// The manifest's file name inside the archive.
    public static let fileName = "manifest.json"

    /// A collection and how many live documents it holds.
    public struct CollectionSummary: Codable, Sendable, Equatable {
        /// The full name, `scope.collection` (`_default._default` for the default collection).
        public var name: String
        /// Live (not deleted) documents.
        public var documentCount: Int

        /// Makes a summary.
        public init(name: String, documentCount: Int) {
            self.name = name
            self.documentCount = documentCount
        }
    }

    /// An index defined in the fixture database.
    public struct IndexDescription: Codable, Sendable, Equatable {
        /// The kinds of index Quire knows.
        public enum Kind: String, Codable, Sendable, Equatable {
            /// A value index (`ValueIndexConfiguration`).
            case value
            /// A full-text index (`FullTextIndexConfiguration`).
            case fullText
        }

        /// The full name of the collection it belongs to.
        public var collection: String
        /// The index name.
        public var name: String
        /// Value or full-text.
        public var kind: Kind
        /// The indexed expressions, as written in the configuration.
        public var expressions: [String]
        /// Full-text only, when set: whether accents are ignored.
        public var ignoreAccents: Bool?
        /// Full-text only, when set: the language for stemming and stop words.
        public var language: String?

        /// Makes a description.
        public init(
            collection: String, name: String, kind: Kind, expressions: [String], ignoreAccents: Bool? = nil,
            language: String? = nil
        ) {
            self.collection = collection
            self.name = name
            self.kind = kind
            self.expressions = expressions
            self.ignoreAccents = ignoreAccents
            self.language = language
        }
    }

    /// One archive entry other than the manifest and blobs, with its content hash.
    public struct Entry: Codable, Sendable, Equatable {
        /// Relative path inside the archive.
        public var path: String
        /// Lowercase hex SHA-256 of the content.
        public var sha256: String
        /// Size in bytes.
        public var size: Int64

        /// Makes an entry.
        public init(path: String, sha256: String, size: Int64) {
            self.path = path
            self.sha256 = sha256
            self.size = size
        }
    }

    /// A replication checkpoint kept in the fixture so its first sync resumes instead of
    /// starting over. Provisional: the replicator defines the final shape.
    public struct Checkpoint: Codable, Sendable, Equatable {
        /// The full name of the collection replicated.
        public var collection: String
        /// The remote endpoint URL as configured.
        public var remoteURL: String
        /// The checkpoint document ID.
        public var checkpointID: String

        /// Makes a checkpoint record.
        public init(collection: String, remoteURL: String, checkpointID: String) {
            self.collection = collection
            self.remoteURL = remoteURL
            self.checkpointID = checkpointID
        }
    }

    /// The fixture format version; readers refuse other versions.
    public var formatVersion: Int
    /// The Quire version that built the fixture.
    public var quireVersion: String
    /// The fixture's name.
    public var name: String
    /// Every collection in the database.
    public var collections: [CollectionSummary]
    /// Every index in the database.
    public var indexes: [IndexDescription]
    /// Digests (`sha1-<base64>`) of every blob stored.
    public var blobs: [String]
    /// Every other archive entry with its hash and size.
    public var entries: [Entry]
    /// Replication checkpoints; absent or empty when the fixture was not synced.
    public var checkpoints: [Checkpoint]?
    /// The build's fixed timestamp, `YYYY-MM-DDThh:mm:ssZ`.
    public var buildTimestamp: String

    /// Makes a manifest for the current format and Quire version.
    public init(
        name: String,
        collections: [CollectionSummary],
        indexes: [IndexDescription] = [],
        blobs: [String] = [],
        entries: [Entry] = [],
        checkpoints: [Checkpoint]? = nil,
        buildTimestamp: FixtureTimestamp,
        formatVersion: Int = QuireFixtures.formatVersion,
        quireVersion: String = QuireFixtures.quireVersion
    ) {
        self.formatVersion = formatVersion
        self.quireVersion = quireVersion
        self.name = name
        self.collections = collections
        self.indexes = indexes
        self.blobs = blobs
        self.entries = entries
        self.checkpoints = checkpoints
        self.buildTimestamp = buildTimestamp.iso8601
    }

    /// The same manifest with its arrays in canonical order: collections by name, indexes by
    /// collection then name, blobs, entries by path (all in UTF-8 byte order).
    public func canonicalized() -> FixtureManifest {
        func before(_ lhs: String, _ rhs: String) -> Bool { lhs.utf8.lexicographicallyPrecedes(rhs.utf8) }
        var copy = self
        copy.collections.sort { before($0.name, $1.name) }
        copy.indexes.sort {
            $0.collection != $1.collection ? before($0.collection, $1.collection) : before($0.name, $1.name)
        }
        copy.blobs.sort(by: before)
        copy.entries.sort { before($0.path, $1.path) }
        copy.checkpoints?.sort {
            $0.collection != $1.collection
                ? before($0.collection, $1.collection) : before($0.checkpointID, $1.checkpointID)
        }
        return copy
    }

    /// Stable JSON: validated, canonical order, sorted keys, two-space indentation, final newline.
    ///
    /// - Throws: `QuireError.invalidParameter` when a field breaks a rule (see ``validate()``).
    public func encoded() throws -> Data {
        let canonical = canonicalized()
        try canonical.validate()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(canonical)
        data.append(0x0a)
        return data
    }

    /// Reads and validates a manifest.
    ///
    /// - Throws: `QuireError.corruptData` naming the field when the JSON is malformed, a field
    ///   is missing or of the wrong type, or a value breaks a rule.
    public static func decoded(from data: Data) throws -> FixtureManifest {
        let manifest: FixtureManifest
        do {
            manifest = try JSONDecoder().decode(FixtureManifest.self, from: data)
        } catch let error as DecodingError {
            throw FixtureManifestValidator.describe(error)
        }
        try FixtureManifestValidator(code: .corruptData).validate(manifest)
        return manifest
    }

    /// Checks every field: supported format version, non-empty names, `scope.collection`
    /// names, unique collections, indexes on listed collections, `sha1-` blob digests,
    /// safe relative entry paths with 64-hex SHA-256 and non-negative sizes, and a
    /// `YYYY-MM-DDThh:mm:ssZ` build timestamp.
    ///
    /// - Throws: `QuireError.invalidParameter` naming the field and the value.
    public func validate() throws {
        try FixtureManifestValidator(code: .invalidParameter).validate(self)
    }
}
