extension FullTextIndexConfiguration {
    /// The language codes whose stemming this build has (Snowball's), sorted: what a
    /// ``language`` may name to be stemmed. Empty when the build leaves the stemmers out.
    /// The library itself still takes any other language (unstemmed, as Couchbase Lite does);
    /// this list is for tools that refuse a language they cannot stem.
    package static var stemmedLanguages: [String] {
        SnowballStemmers.algorithms.keys.filter { SnowballStemmers.algorithm(for: $0) != nil }.sorted()
    }

    /// Whether `language` (a code such as `fr` or `pt-BR`, or a Snowball name such as
    /// `french`) is stemmed in this build.
    package static func isStemmed(language: String) -> Bool {
        SnowballStemmers.algorithm(for: language) != nil
    }
}
