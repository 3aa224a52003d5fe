import QuireFixtures

extension FixtureRecipe {
    /// An index to create in a collection: a value index (`ValueIndexConfiguration`) or a
    /// full-text index (`FullTextIndexConfiguration`).
    public struct Index: Sendable, Equatable {
        /// The index's name, unique within its collection.
        public var name: String
        /// Value or full-text.
        public var kind: FixtureManifest.IndexDescription.Kind
        /// The indexed expressions, as the configuration takes them (`city`, `geo.lat`).
        public var expressions: [String]
        /// Full-text only: match letters whatever their accents.
        public var ignoreAccents: Bool?
        /// Full-text only: the language for stemming and stop words (`en`).
        public var language: String?

        /// Makes an index description.
        public init(
            name: String, kind: FixtureManifest.IndexDescription.Kind, expressions: [String],
            ignoreAccents: Bool? = nil, language: String? = nil
        ) {
            self.name = name
            self.kind = kind
            self.expressions = expressions
            self.ignoreAccents = ignoreAccents
            self.language = language
        }

        /// The manifest's record of this index in `collection`.
        func manifestDescription(collection: String) -> FixtureManifest.IndexDescription {
            FixtureManifest.IndexDescription(
                collection: collection, name: name, kind: kind, expressions: expressions,
                ignoreAccents: ignoreAccents, language: language)
        }
    }
}
