import Foundation
import Quire

extension FixtureRecipe {
    /// Where a fixture's documents come from.
    ///
    /// Replication adds a case that pulls from a remote; code that switches over sources
    /// names each case, so that addition shows where it needs handling.
    public enum Source: Sendable, Equatable {
        /// A folder in Couchbase's test-kit layout (see ``DatasetReader``): `index.json`, one
        /// `<scope>.<collection>.jsonl` per collection, blobs in `Attachments/`.
        case dataset(URL)
        /// One JSON Lines file per collection, in the recipe's order; documents may not
        /// refer to blobs, since there is nowhere to take them from.
        case jsonLines([JSONLinesFile])

        /// The full names of the collections the source holds, in its order.
        func collectionNames() throws -> [String] {
            switch self {
            case .dataset(let folder):
                return try DatasetReader(folder: folder).index.fullCollectionNames
            case .jsonLines(let files):
                return files.map(\.collection)
            }
        }
    }

    /// The line reader for one of the recipe's collections.
    func documentReader(for settings: CollectionSettings) throws -> JSONLinesDocumentReader {
        switch source {
        case .dataset(let folder):
            return try DatasetReader(folder: folder).documentReader(for: settings.name, idField: settings.idField)
        case .jsonLines(let files):
            guard let file = files.first(where: { $0.collection == settings.name }) else {
                throw QuireError(.invalidParameter, "the recipe's source has no file for '\(settings.name)'")
            }
            return JSONLinesDocumentReader(url: file.url, idField: settings.idField)
        }
    }

    /// A collection's documents in a JSON Lines file.
    public struct JSONLinesFile: Sendable, Equatable {
        /// The collection's full name, `scope.collection`.
        public var collection: String
        /// The file.
        public var url: URL

        /// Makes a file entry.
        public init(collection: String, url: URL) {
            self.collection = collection
            self.url = url
        }
    }
}
