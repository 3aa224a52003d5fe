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
        /// A query (SQL++) to listen to as a live query instead; each update records its row
        /// count, and `waitForChange` waits for the next one.
        public var query: String?

        /// Makes listener arguments.
        public init(
            name: String, collection: CollectionName = .default, documentID: String? = nil, query: String? = nil
        ) {
            self.name = name
            self.collection = collection
            self.documentID = documentID
            self.query = query
        }
    }
}
