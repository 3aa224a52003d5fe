import Foundation
import Quire
import QuireFixtures

/// What a fixture is made of, read from a recipe file (`Fixtures/recipes/*.yaml`).
///
/// ```yaml
/// name: travel-20                     # the database's name; the archive is travel-20.quire.zip
/// source:
///   dataset: ../datasets/travel-20    # a test-kit folder (paths are relative to the recipe)
///   # or: jsonl: {_default: people.jsonl, inventory.hotel: hotels.jsonl}
/// collections:                        # optional: which collections to load, in this order
///   - name: inventory.hotel
///     id: _id                         # the top-level field holding document IDs (default _id)
///     indexes:                        # created after the load
///       - {name: hotel_place, value: [country, city]}
///       - {name: hotel_text, fullText: [description], ignoreAccents: true, language: en}
///     expiration: {after: 365d}       # or {field: expires_at}
/// ```
///
/// Without `collections`, every collection of the source is loaded, in the source's order,
/// with IDs from `_id`, no indexes and no expirations. ``load(from:)`` reports every
/// problem as `recipe.yaml:LINE:COLUMN: key.path problem`.
public struct FixtureRecipe: Sendable, Equatable {
    /// The fixture's name: the database's name and the archive's (`<name>.quire.zip`).
    public var name: String
    /// Where the documents come from.
    public var source: Source
    /// The collections to load, in load order, with their settings.
    public var collections: [CollectionSettings]
    /// The SHA-256 of the recipe file's bytes; part of the build's identity (see
    /// ``FixtureIdentity``).
    public var contentDigest: [UInt8]

    /// Makes a recipe.
    public init(name: String, source: Source, collections: [CollectionSettings], contentDigest: [UInt8]) {
        self.name = name
        self.source = source
        self.collections = collections
        self.contentDigest = contentDigest
    }

    /// Reads, checks and resolves the recipe at `url`: relative paths are taken from its
    /// folder, and every collection it names must exist in its source.
    ///
    /// - Throws: `QuireError.invalidParameter` starting with `file:line:column:`; notFound
    ///   when the file cannot be read.
    public static func load(from url: URL) throws -> FixtureRecipe {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw QuireError(.notFound, "cannot read recipe '\(url.path)': \(error.localizedDescription)")
        }
        return try parse(data, fileName: url.lastPathComponent, baseFolder: url.deletingLastPathComponent())
    }

    /// Parses recipe text; relative paths are taken from `baseFolder`, and `fileName` starts
    /// every error message.
    ///
    /// - Throws: `QuireError.invalidParameter` starting with `fileName:line:column:`.
    public static func parse(_ data: Data, fileName: String, baseFolder: URL) throws -> FixtureRecipe {
        try FixtureRecipeParser(fileName: fileName, baseFolder: baseFolder).parse(data)
    }

    /// Whether `name` can name a fixture: 1...128 of `A-Z a-z 0-9 . _ -`, starting with a
    /// letter or digit, so it is a safe file name and database name everywhere.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...128).contains(bytes.count), let first = bytes.first, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy {
            isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
