import CQuireSnowball

/// The Snowball stemmers of Couchbase Lite's full-text search (libstemmer), by the language
/// codes Couchbase Lite accepts, and the FTS5 tokenizer that applies them.
///
/// The tokenizer is registered as an SQLite auto-extension, so every connection opened after
/// the first `Database` object is made has it: full-text tables name it in their definition,
/// and every connection that reads or writes one needs it, not only the one that created it.
enum SnowballStemmers {
    /// Language codes and the Snowball algorithms they select (Couchbase Lite's list).
    static let algorithms: [String: String] = [
        "da": "danish", "de": "german", "en": "english", "es": "spanish", "fi": "finnish", "fr": "french",
        "hu": "hungarian", "it": "italian", "nl": "dutch", "no": "norwegian", "pt": "portuguese",
        "ro": "romanian", "ru": "russian", "sv": "swedish", "tr": "turkish",
    ]

    /// The name of the FTS5 tokenizer, whose arguments are an algorithm and unicode61's own.
    static let tokenizerName = "quire_snowball"

    private static let registration: Int32 = quire_snowball_register()

    /// Registers the tokenizer for connections opened from now on (once per process).
    static func registerForNewConnections() {
        _ = registration
    }

    /// The algorithm for a language code or name (`es`, `es-MX`, `spanish`), or nil when
    /// there is none; checked against the linked libstemmer.
    static func algorithm(for language: String) -> String? {
        let lowered = language.lowercased()
        let code = lowered.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? lowered
        let algorithm = algorithms[code] ?? algorithms.values.first { $0 == lowered }
        guard let algorithm, quire_snowball_has_algorithm(algorithm) != 0 else { return nil }
        return algorithm
    }
}
