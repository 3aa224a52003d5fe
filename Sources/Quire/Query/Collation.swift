/// How strings compare in a ``ExpressionProtocol/collate(_:)`` expression: by Unicode rules,
/// optionally ignoring case and accents, or by ASCII code, optionally ignoring ASCII case.
///
/// ```swift
/// Expression.property("name").collate(Collation.unicode().ignoreCase(true).ignoreAccents(true))
/// ```
public struct Collation: Sendable, Hashable, CustomStringConvertible {
    /// Whether Unicode rules apply (otherwise ASCII code order).
    package private(set) var isUnicode: Bool
    /// Whether upper and lower case compare equal.
    package private(set) var ignoresCase: Bool
    /// Whether accented letters compare equal to their base letters (Unicode only).
    package private(set) var ignoresAccents: Bool
    /// The locale whose rules a Unicode collation follows (nil: Quire's locale-independent
    /// order). An identifier that is not 1 to 64 ASCII letters, digits, `_` and `-` is
    /// recorded but not followed.
    package private(set) var localeIdentifier: String?

    /// A Unicode collation: case- and accent-sensitive until told otherwise.
    public static func unicode() -> Collation {
        Collation(isUnicode: true, ignoresCase: false, ignoresAccents: false, localeIdentifier: nil)
    }

    /// An ASCII collation: bytewise order, case-sensitive until told otherwise.
    public static func ascii() -> Collation {
        Collation(isUnicode: false, ignoresCase: false, ignoresAccents: false, localeIdentifier: nil)
    }

    /// The same collation, ignoring case or not.
    public func ignoreCase(_ ignore: Bool) -> Collation {
        var copy = self
        copy.ignoresCase = ignore
        return copy
    }

    /// The same collation, ignoring accents or not (only Unicode collations can).
    public func ignoreAccents(_ ignore: Bool) -> Collation {
        var copy = self
        copy.ignoresAccents = ignore && isUnicode
        return copy
    }

    /// The same collation following `identifier`'s rules (`"sv"`, `"de_DE"`), or none.
    public func locale(_ identifier: String?) -> Collation {
        var copy = self
        copy.localeIdentifier = identifier
        return copy
    }

    /// The SQLite collation that implements it: `BINARY` and `NOCASE` for ASCII, one of
    /// Quire's registered Unicode collations otherwise.
    var sqlName: String {
        guard isUnicode else { return ignoresCase ? "NOCASE" : "BINARY" }
        guard let localeIdentifier, UnicodeCollator.isLocaleIdentifier(localeIdentifier) else {
            return UnicodeCollator.sqlName(ignoreCase: ignoresCase, ignoreAccents: ignoresAccents)
        }
        return "\""
            + UnicodeCollator.sqlName(ignoreCase: ignoresCase, ignoreAccents: ignoresAccents, locale: localeIdentifier)
            + "\""
    }

    /// The collation as SQL++ writes it, e.g. `(UNICODE NOCASE NODIAC)` or `(NOUNICODE NOCASE)`.
    public var description: String {
        var words = [isUnicode ? localeIdentifier.map { "UNICODE:\($0)" } ?? "UNICODE" : "NOUNICODE"]
        if ignoresCase { words.append("NOCASE") }
        if ignoresAccents { words.append("NODIAC") }
        return "(" + words.joined(separator: " ") + ")"
    }
}
