/// A full-text index: an FTS5 table over the text of expressions of each document, queried
/// with ``FullTextFunction/match(_:query:)`` and ordered with ``FullTextFunction/rank(_:)``.
///
/// ```swift
/// try collection.createIndex(withName: "text", config: FullTextIndexConfiguration(["title", "body"], ignoreAccents: true))
/// ```
public struct FullTextIndexConfiguration: IndexConfiguration, Equatable {
    /// The indexed expressions, in SQL++.
    public let expressions: [String]
    /// The condition documents must meet to be indexed, in SQL++.
    public let whereClause: String?
    /// Whether accented letters match their base letters (`café` matches `cafe`).
    public let ignoreAccents: Bool
    /// The language whose stemming applies, as Couchbase Lite names it: `"en"` (English, the
    /// default), `"da"`, `"de"`, `"es"`, `"fi"`, `"fr"`, `"hu"`, `"it"`, `"nl"`, `"no"`,
    /// `"pt"`, `"ro"`, `"ru"`, `"sv"`, `"tr"` (Snowball's stemmers: `corriendo` matches
    /// `correr` in Spanish), or nil or `""` for none. Other languages are invalidParameter.
    public let language: String?

    /// Makes a configuration.
    public init(_ expressions: [String], where whereClause: String? = nil, ignoreAccents: Bool = false, language: String? = "en") {
        self.expressions = expressions
        self.whereClause = whereClause
        self.ignoreAccents = ignoreAccents
        self.language = language
    }

    /// The FTS5 tokenizer for the settings; invalidParameter for an unsupported language.
    /// English keeps SQLite's porter stemmer, which indexes made before the other languages
    /// were supported use; every other language is Snowball's over unicode61, so
    /// `ignoreAccents` applies alike in all of them.
    func tokenizer() throws -> String {
        let accents = "remove_diacritics \(ignoreAccents ? 2 : 0)"
        guard let language, !language.isEmpty else { return "unicode61 \(accents)" }
        guard let algorithm = SnowballStemmers.algorithm(for: language) else {
            let supported = SnowballStemmers.algorithms.keys.sorted().joined(separator: ", ")
            throw QuireError(
                .invalidParameter,
                "full-text language '\(language)' is not supported; supported: \(supported), or nil or \"\" for no stemming")
        }
        if algorithm == "english" { return "porter unicode61 \(accents)" }
        SnowballStemmers.registerForNewConnections()
        return "\(SnowballStemmers.tokenizerName) \(algorithm) \(accents)"
    }
}
