#if Snowball
    import CQuireSnowball
#endif

/// The Snowball stemmers of Couchbase Lite's full-text search (libstemmer), by the language
/// codes Couchbase Lite accepts, and the FTS5 tokenizer that applies them.
///
/// They come with the package's `Snowball` trait (on by default). No Apple SDK ships
/// libstemmer, so an app may build without it: English then stems with FTS5's own porter
/// tokenizer, and a full-text index in another of these languages is refused, naming the
/// trait (``FullTextIndexConfiguration``).
enum SnowballStemmers {
    /// Language codes and the Snowball algorithms they select (Couchbase Lite's list).
    static let algorithms: [String: String] = [
        "da": "danish", "de": "german", "en": "english", "es": "spanish", "fi": "finnish", "fr": "french",
        "hu": "hungarian", "it": "italian", "nl": "dutch", "no": "norwegian", "pt": "portuguese",
        "ro": "romanian", "ru": "russian", "sv": "swedish", "tr": "turkish",
    ]

    /// The name of the FTS5 tokenizer, whose arguments are an algorithm and unicode61's own.
    static let tokenizerName = "quire_snowball"

    /// Whether this build has the stemmers (the package's `Snowball` trait).
    static var isBuiltIn: Bool {
        #if Snowball
            return true
        #else
            return false
        #endif
    }

    /// The Snowball algorithm a language code or name selects (`es`, `es-MX`, `spanish`),
    /// whether or not this build has it; nil for a language Couchbase Lite does not stem.
    static func algorithmName(for language: String) -> String? {
        let lowered = language.lowercased()
        let code = lowered.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? lowered
        return algorithms[code] ?? algorithms.values.first { $0 == lowered }
    }

    /// The algorithm for a language code or name, or nil when there is none in this build;
    /// checked against the linked libstemmer.
    static func algorithm(for language: String) -> String? {
        #if Snowball
            guard let algorithm = algorithmName(for: language), quire_snowball_has_algorithm(algorithm) != 0 else {
                return nil
            }
            return algorithm
        #else
            return nil
        #endif
    }

    /// Registers the tokenizer on a new connection: every connection that reads or writes a
    /// full-text table needs it, not only the one that created the table. Returns an SQLite
    /// result code (SQLITE_OK, 0, without the trait).
    static func register(on handle: OpaquePointer) -> Int32 {
        #if Snowball
            return quire_snowball_register(handle)
        #else
            return 0
        #endif
    }
}
