import Quire
import QuireFixtures

extension FixtureRecipe {
    /// One collection to load and how.
    public struct CollectionSettings: Sendable, Equatable {
        /// The full name, `scope.collection` (`_default._default` for the default collection).
        public var name: String
        /// The top-level field holding each document's ID; `_id` (the default) is removed from
        /// bodies, any other field stays in them.
        public var idField: String
        /// Indexes to create once every document is loaded.
        public var indexes: [Index]
        /// When documents expire, if they do.
        public var expiration: Expiration?

        /// Makes settings.
        public init(name: String, idField: String = "_id", indexes: [Index] = [], expiration: Expiration? = nil) {
            self.name = name
            self.idField = idField
            self.indexes = indexes
            self.expiration = expiration
        }

        /// The collection's name and scope as Quire's API takes them.
        var nameAndScope: (name: String, scope: String) {
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[1], parts[0]) : (name, CollectionName.defaultName)
        }
    }
}
