/// One token of SQL++ text, with where it starts.
struct SQLPPToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A name; `quoted` when written in backquotes (never a keyword then).
        case identifier(String, quoted: Bool)
        /// A string literal.
        case string(String)
        /// An integer literal.
        case integer(Int64)
        /// A floating-point literal.
        case double(Double)
        /// `$name`.
        case parameter(String)
        /// Punctuation and operators: `( ) [ ] , . * + - / % = == != <> < <= > >= || ;`.
        case symbol(String)
        /// The end of the text.
        case end
    }

    let kind: Kind
    /// The offset of the first character, counted in characters from 0.
    let offset: Int
    /// The token as written.
    let text: String

    /// Words SQL++ reserves; they are not property names unless backquoted.
    static let keywords: Set<String> = [
        "ALL", "AND", "ANY", "AS", "ASC", "BETWEEN", "BY", "CASE", "COLLATE", "CROSS", "DESC", "DISTINCT", "ELSE",
        "END", "EVERY", "FALSE", "FROM", "GROUP", "HAVING", "IN", "INNER", "IS", "JOIN", "LEFT", "LIKE", "LIMIT",
        "MISSING", "NOT", "NULL", "OFFSET", "ON", "OR", "ORDER", "OUTER", "SATISFIES", "SELECT", "SOME", "THEN", "TRUE",
        "VALUED", "WHEN", "WHERE",
    ]

    /// Whether this is the keyword `word` (upper case).
    func isKeyword(_ word: String) -> Bool {
        if case .identifier(let name, quoted: false) = kind { return name.uppercased() == word }
        return false
    }

    /// Whether this is the symbol `symbol`.
    func isSymbol(_ symbol: String) -> Bool {
        kind == .symbol(symbol)
    }

    /// A name that is not a keyword.
    var name: String? {
        guard case .identifier(let name, let quoted) = kind else { return nil }
        return quoted || !SQLPPToken.keywords.contains(name.uppercased()) ? name : nil
    }

    /// How error messages show the token.
    var shown: String {
        kind == .end ? "the end of the query" : "'\(text)'"
    }
}
