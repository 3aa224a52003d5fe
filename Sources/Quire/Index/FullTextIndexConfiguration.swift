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
    /// The language whose stemming applies: `"en"` (English, porter stemmer: `running`
    /// matches `run`), or nil or `""` for none. Other languages are invalidParameter.
    public let language: String?

    /// Makes a configuration.
    public init(_ expressions: [String], where whereClause: String? = nil, ignoreAccents: Bool = false, language: String? = "en") {
        self.expressions = expressions
        self.whereClause = whereClause
        self.ignoreAccents = ignoreAccents
        self.language = language
    }

    /// The languages Quire can stem, by code.
    static let stemmedLanguages = ["en": "English"]

    /// The FTS5 tokenizer for the settings; invalidParameter for an unsupported language.
    func tokenizer() throws -> String {
        let accents = "remove_diacritics \(ignoreAccents ? 2 : 0)"
        guard let language, !language.isEmpty else { return "unicode61 \(accents)" }
        let code = language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        if code == "en" || code == "english" {
            return "porter unicode61 \(accents)"
        }
        let supported = FullTextIndexConfiguration.stemmedLanguages.map { "'\($0.key)' (\($0.value))" }.joined(separator: ", ")
        throw QuireError(
            .invalidParameter,
            "full-text language '\(language)' is not supported; supported: \(supported), or nil or \"\" for no stemming")
    }
}
