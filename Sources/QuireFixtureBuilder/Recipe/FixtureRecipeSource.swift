import Foundation
import Quire
import QuireFixtures

extension FixtureRecipe {
    /// Where a fixture's documents come from.
    ///
    /// Replication adds a case that pulls from a remote; code that switches over sources
    /// names each case, so that addition shows where it needs handling.
    public enum Source: Sendable, Equatable {
        /// A folder in Couchbase's test-kit layout (see ``DatasetReader``): `index.json`, one
        /// `<entry>.jsonl` per collection it lists (`_default.jsonl`, `travel.hotels.jsonl`),
        /// blobs in `Attachments/`.
        case dataset(URL)
        /// One JSON Lines file per collection, in the recipe's order; documents may not
        /// refer to blobs, since there is nowhere to take them from.
        case jsonLines([JSONLinesFile])
        /// A remote database pulled once with a one-shot replicator; the fixture keeps the
        /// checkpoints, so an installed copy's first pull resumes where the build stopped.
        case remote(Remote)

        /// The full names of the collections the source holds, in its order.
        func collectionNames() throws -> [String] {
            switch self {
            case .dataset(let folder):
                return try DatasetReader(folder: folder).index.fullCollectionNames
            case .jsonLines(let files):
                return files.map(\.collection)
            case .remote(let remote):
                return remote.collections
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
        case .remote:
            throw QuireError(.unsupported, "a remote source is pulled by replication, not read line by line")
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

    /// A remote database to pull from (`source: {remote: {url, channels, collections}}`).
    public struct Remote: Sendable, Equatable {
        /// The remote database's URL (`http://host:port/db`).
        public var url: URL
        /// The channels to pull; empty pulls every document.
        public var channels: [String]
        /// The full names of the collections to pull, `scope.collection`; each is pulled
        /// from its keyspace on the remote.
        public var collections: [String]

        /// Makes a remote source; without collections, the default collection is pulled.
        public init(url: URL, channels: [String] = [], collections: [String] = ["_default._default"]) {
            self.url = url
            self.channels = channels
            self.collections = collections
        }
    }

    /// The recipe with its remote source's URL replaced (the port of a test server is only
    /// known at run time); other sources are returned unchanged.
    public func withRemoteURL(_ url: URL) -> FixtureRecipe {
        guard case .remote(var remote) = source else { return self }
        remote.url = url
        var copy = self
        copy.source = .remote(remote)
        return copy
    }
}
