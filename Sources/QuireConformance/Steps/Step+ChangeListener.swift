import Quire

extension Step {
    /// The arguments of `addChangeListener`.
    public struct ChangeListener: Sendable, Hashable {
        /// The name `changes` reads the recorded IDs by.
        public var name: String
        /// The collection listened to.
        public var collection: CollectionName
        /// One document to listen to (a document change listener); nil for the whole
        /// collection.
        public var documentID: String?

        /// Makes listener arguments.
        public init(name: String, collection: CollectionName = .default, documentID: String? = nil) {
            self.name = name
            self.collection = collection
            self.documentID = documentID
        }
    }
}
