/// A full-text index: an FTS5 table over the text of expressions of each document, queried
/// with ``FullTextFunction/match(_:query:)-(_,String)`` and ordered with ``FullTextFunction/rank(_:)``.
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
    /// `correr` in Spanish), or nil or `""` for none. English also drops Snowball's English
    /// stop words (`the`, `is` ...) from the text and from queries. Another language makes an
    /// index without stemming, as Couchbase Lite does.
    public let language: String?

    /// A full-text index on `expressions`, of the documents `whereClause` selects when given,
    /// stemmed in `language` and with accents folded when `ignoreAccents` is true.
    public init(
        _ expressions: [String], where whereClause: String? = nil, ignoreAccents: Bool = false, language: String? = "en"
    ) {
        self.expressions = expressions
        self.whereClause = whereClause
        self.ignoreAccents = ignoreAccents
        self.language = language
    }

    /// The FTS5 tokenizer for the settings: Snowball's stemmer for the language over
    /// unicode61, so `ignoreAccents` applies alike in all of them, with the English stop words
    /// for English (as LiteCore's tokenizer), and unicode61 alone for no language or one
    /// without a stemmer (LiteCore's "Query Full-Text Unsupported Language" indexes
    /// "elbonian" text unstemmed). Indexes made before stop words were dropped name SQLite's
    /// porter tokenizer in their table's definition and keep it: they go on working as they
    /// were, stop words indexed, until the index is created again.
    ///
    /// A build without the `Snowball` trait stems English with FTS5's porter tokenizer (stop
    /// words indexed) and refuses the other stemmed languages rather than index them unstemmed,
    /// which would quietly find less than the same index in Couchbase Lite.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a language that needs the `Snowball`
    ///   trait in a build without it.
    func tokenizer() throws -> String {
        let accents = "remove_diacritics \(ignoreAccents ? 2 : 0)"
        guard let language, !language.isEmpty, let named = SnowballStemmers.algorithmName(for: language) else {
            return "unicode61 \(accents)"
        }
        guard SnowballStemmers.isBuiltIn else {
            if named == "english" { return "porter unicode61 \(accents)" }
            throw QuireError(
                .invalidParameter,
                "full-text language '\(language)' needs Snowball's \(named) stemmer, and this build of Quire leaves out the package trait 'Snowball' (use \"en\" or no language, or build with the trait)"
            )
        }
        guard let algorithm = SnowballStemmers.algorithm(for: language) else { return "unicode61 \(accents)" }
        let stopWords = algorithm == "english" ? " stopwords en" : ""
        return "\(SnowballStemmers.tokenizerName) \(algorithm)\(stopWords) \(accents)"
    }
}

extension FullTextIndexConfiguration {
    /// Whether this build has Couchbase Lite's Snowball stemmers: the package trait `Snowball`
    /// (on by default; an app for Apple platforms, whose SDKs have no libstemmer, may leave it
    /// out).
    package static var hasSnowballStemmers: Bool { SnowballStemmers.isBuiltIn }

    /// Whether a full-text index in `language` stems with Snowball in a build with the trait
    /// (English included, whose stop words are Snowball's).
    package static func needsSnowball(language: String) -> Bool {
        !language.isEmpty && SnowballStemmers.algorithmName(for: language) != nil
    }
}
