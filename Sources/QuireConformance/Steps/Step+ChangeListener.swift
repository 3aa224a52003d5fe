import Quire

extension Step {
    /// The arguments of `addChangeListener`.
    package struct ChangeListener: Sendable, Hashable {
        /// The name `changes` reads the recorded IDs by.
        package var name: String
        /// The collection listened to.
        package var collection: CollectionName
        /// One document to listen to (a document change listener); nil for the whole
        /// collection.
        package var documentID: String?
        /// A query (SQL++) to listen to as a live query instead; each update records its row
        /// count, and `waitForChange` waits for the next one.
        package var query: String?
        /// The live query's named parameters (`$name` in the text).
        package var parameters: [String: SpecValue]
        /// Another live query listener whose query object this listener is added to, instead
        /// of a query of its own.
        package var sameQueryAs: String?
        /// Whether the runner keeps the listener's token; false drops it at once, as an app
        /// that ignores the token does, and the listener must go on hearing changes.
        package var keepsToken: Bool

        /// Makes listener arguments.
        package init(
            name: String, collection: CollectionName = .default, documentID: String? = nil, query: String? = nil,
            parameters: [String: SpecValue] = [:], sameQueryAs: String? = nil, keepsToken: Bool = true
        ) {
            self.keepsToken = keepsToken
            self.name = name
            self.collection = collection
            self.documentID = documentID
            self.query = query
            self.parameters = parameters
            self.sameQueryAs = sameQueryAs
        }
    }
}
