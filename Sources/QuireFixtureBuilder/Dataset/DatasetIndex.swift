import Foundation
import Quire
import QuireFixtures

/// A dataset's `index.json`: its name and the collections it holds.
public struct DatasetIndex: Codable, Sendable, Equatable {
    /// The index file's name inside a dataset folder.
    public static let fileName = "index.json"

    /// The dataset's name.
    public var name: String
    /// Collections as listed: `scope.collection`, or a bare `collection` of the default scope
    /// (`_default` is the default collection, `lists` is `_default.lists`), as Couchbase's
    /// test-kit datasets list them.
    public var collections: [String]

    /// Makes an index.
    public init(name: String, collections: [String]) {
        self.name = name
        self.collections = collections
    }

    /// The listed collections as full names (`_default` becomes `_default._default`).
    public var fullCollectionNames: [String] {
        collections.map(Self.fullName(of:))
    }

    /// The full name of a listed collection: a name without a dot is a collection of the
    /// default scope (`_default` becomes `_default._default`, `lists` `_default.lists`).
    public static func fullName(of listed: String) -> String {
        listed.contains(".") ? listed : CollectionName.defaultName + "." + listed
    }

    /// The entry of this index that names the collection `name` (a full name or an entry).
    public func listedEntry(for name: String) -> String? {
        let full = Self.fullName(of: name)
        return collections.first { Self.fullName(of: $0) == full }
    }

    /// Reads and checks `index.json`.
    ///
    /// - Throws: `QuireError.corruptData` naming the file and the problem.
    public static func read(from url: URL) throws -> DatasetIndex {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw QuireError(.notFound, "dataset index '\(url.path)' cannot be read: \(error.localizedDescription)")
        }
        let index: DatasetIndex
        do {
            index = try JSONDecoder().decode(DatasetIndex.self, from: data)
        } catch {
            throw QuireError(
                .corruptData,
                "dataset index '\(url.path)' is not {\"name\": string, \"collections\": [string]}: \(error)")
        }
        guard !index.name.isEmpty else {
            throw QuireError(.corruptData, "dataset index '\(url.path)' has an empty name")
        }
        var seen: Set<String> = []
        for listed in index.collections {
            let full = fullName(of: listed)
            guard CollectionName.isValidFullName(full) else {
                throw QuireError(
                    .corruptData,
                    "dataset index '\(url.path)' lists '\(listed)', which is neither a valid 'scope.collection' nor a collection name of the default scope"
                )
            }
            guard seen.insert(full).inserted else {
                throw QuireError(.corruptData, "dataset index '\(url.path)' lists '\(listed)' twice")
            }
        }
        return index
    }
}
