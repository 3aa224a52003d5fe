import Foundation

/// The string order behind Unicode collations: letters compare by their base form first,
/// then by accents, then by case (lower case first), and finally by code points, so that
/// only strings that are really the same compare equal unless case or accents are ignored.
///
/// Without a locale the order is locale-independent: the same on every machine, which matters
/// because it decides which rows a query returns in which order. A collation that names a
/// locale (`Collation.unicode().locale("sv")`, SQL++ `COLLATE UNICODE:sv`) orders by that
/// locale's rules instead, as Couchbase Lite does: Swedish sorts `Å` after `Z`.
enum UnicodeCollator {
    /// The four variants, each registered on every connection under its SQL name.
    static let variants: [(name: String, ignoreCase: Bool, ignoreAccents: Bool)] = [
        ("QUIRE_UNICODE", false, false),
        ("QUIRE_UNICODE_NOCASE", true, false),
        ("QUIRE_UNICODE_NODIAC", false, true),
        ("QUIRE_UNICODE_NOCASE_NODIAC", true, true),
    ]

    static func sqlName(ignoreCase: Bool, ignoreAccents: Bool) -> String {
        variants.first { $0.ignoreCase == ignoreCase && $0.ignoreAccents == ignoreAccents }?.name ?? "QUIRE_UNICODE"
    }

    /// Whether `identifier` can name a collation's locale: 1 to 64 ASCII letters, digits, `_`
    /// and `-` (anything else could not be part of a collation's name).
    static func isLocaleIdentifier(_ identifier: some StringProtocol) -> Bool {
        !identifier.isEmpty && identifier.count <= 64
            && identifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
    }

    /// The SQLite name of a variant with a locale: the variant's name, `@`, the locale.
    static func sqlName(ignoreCase: Bool, ignoreAccents: Bool, locale: String) -> String {
        sqlName(ignoreCase: ignoreCase, ignoreAccents: ignoreAccents) + "@" + locale
    }

    /// The variant and locale a name made by ``sqlName(ignoreCase:ignoreAccents:locale:)``
    /// asks for; nil for any other name.
    static func localeVariant(named name: String) -> (ignoreCase: Bool, ignoreAccents: Bool, locale: Locale)? {
        guard let at = name.firstIndex(of: "@") else { return nil }
        let base = name[..<at].uppercased()
        let identifier = name[name.index(after: at)...]
        guard let variant = variants.first(where: { $0.name == base }), isLocaleIdentifier(identifier) else {
            return nil
        }
        return (variant.ignoreCase, variant.ignoreAccents, Locale(identifier: String(identifier)))
    }

    /// Compares two strings by `locale`'s rules: negative, zero or positive. Strings the locale
    /// finds equal but that differ are ordered by code points unless case or accents are
    /// ignored, so only the same strings compare equal.
    static func compare(_ left: String, _ right: String, ignoreCase: Bool, ignoreAccents: Bool, locale: Locale) -> Int {
        if left == right { return 0 }
        var options: String.CompareOptions = []
        if ignoreCase { options.insert(.caseInsensitive) }
        if ignoreAccents { options.insert(.diacriticInsensitive) }
        switch left.compare(right, options: options, range: nil, locale: locale) {
        case .orderedAscending: return -1
        case .orderedDescending: return 1
        case .orderedSame: return ignoreCase || ignoreAccents ? 0 : order(left, right)
        }
    }

    /// Compares two strings: negative, zero or positive.
    static func compare(_ left: String, _ right: String, ignoreCase: Bool, ignoreAccents: Bool) -> Int {
        if left == right { return 0 }
        let primary = order(
            fold(left, [.caseInsensitive, .diacriticInsensitive]),
            fold(right, [.caseInsensitive, .diacriticInsensitive]))
        if primary != 0 || (ignoreCase && ignoreAccents) { return primary }
        if !ignoreAccents {
            let secondary = order(fold(left, [.caseInsensitive]), fold(right, [.caseInsensitive]))
            if secondary != 0 || ignoreCase { return secondary }
        }
        if !ignoreCase {
            let base: String.CompareOptions = ignoreAccents ? [.diacriticInsensitive] : []
            let tertiary = order(swapCase(fold(left, base)), swapCase(fold(right, base)))
            if tertiary != 0 || ignoreAccents { return tertiary }
        }
        return order(left, right)
    }

    /// Whether `value` contains `part` under the given folding (an empty part is always found).
    static func contains(_ value: String, _ part: String, ignoreCase: Bool, ignoreAccents: Bool) -> Bool {
        if part.isEmpty { return true }
        // `.literal`: the text as stored, no canonical equivalence (as LiteCore compares).
        var options: String.CompareOptions = [.literal]
        if ignoreCase { options.insert(.caseInsensitive) }
        if ignoreAccents { options.insert(.diacriticInsensitive) }
        return value.range(of: part, options: options) != nil
    }

    /// Whether `value` matches a LIKE `pattern` (`%` any run, `_` one character, `\` escapes)
    /// under the given folding.
    static func like(_ value: String, _ pattern: String, ignoreCase: Bool, ignoreAccents: Bool) -> Bool {
        var options: String.CompareOptions = []
        if ignoreCase { options.insert(.caseInsensitive) }
        if ignoreAccents { options.insert(.diacriticInsensitive) }
        let text = Array(fold(value, options))
        var tokens: [LikeToken] = []
        var escaping = false
        for character in fold(pattern, options) {
            if escaping {
                tokens.append(.character(character))
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "%" {
                tokens.append(.anyRun)
            } else if character == "_" {
                tokens.append(.anyOne)
            } else {
                tokens.append(.character(character))
            }
        }
        return matches(text[...], tokens[...])
    }

    private enum LikeToken {
        case anyRun
        case anyOne
        case character(Character)
    }

    private static func matches(_ text: ArraySlice<Character>, _ tokens: ArraySlice<LikeToken>) -> Bool {
        // Iterative wildcard matching with one backtrack point for the last `%`.
        var textIndex = text.startIndex
        var tokenIndex = tokens.startIndex
        var star: (token: Int, text: Int)?
        while textIndex < text.endIndex {
            if tokenIndex < tokens.endIndex {
                switch tokens[tokenIndex] {
                case .anyRun:
                    star = (tokenIndex, textIndex)
                    tokenIndex += 1
                    continue
                case .anyOne:
                    tokenIndex += 1
                    textIndex += 1
                    continue
                case .character(let character) where character == text[textIndex]:
                    tokenIndex += 1
                    textIndex += 1
                    continue
                case .character:
                    break
                }
            }
            guard let backtrack = star else { return false }
            tokenIndex = backtrack.token + 1
            textIndex = backtrack.text + 1
            star = (backtrack.token, backtrack.text + 1)
        }
        while tokenIndex < tokens.endIndex, case .anyRun = tokens[tokenIndex] { tokenIndex += 1 }
        return tokenIndex == tokens.endIndex
    }

    private static func fold(_ text: String, _ options: String.CompareOptions) -> String {
        options.isEmpty ? text : text.folding(options: options, locale: nil)
    }

    private static func swapCase(_ text: String) -> String {
        String(
            text.map { character -> String in
                character.isLowercase ? character.uppercased() : character.lowercased()
            }.joined())
    }

    private static func order(_ left: String, _ right: String) -> Int {
        left == right ? 0 : (left < right ? -1 : 1)
    }
}
