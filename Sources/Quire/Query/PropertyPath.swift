/// A path into a JSON document: object keys and array indexes, as in `contact.address[0].city`.
///
/// It renders as one canonical SQLite JSON path (`$.contact.address[0].city`), which both the
/// query compiler and index definitions use, so that an expression index and a query over the
/// same property produce the same SQL text.
struct PropertyPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    enum Component: Sendable, Hashable {
        /// An object member.
        case key(String)
        /// An array element; negative indexes count from the end.
        case index(Int)
    }

    var components: [Component]

    init(_ components: [Component] = []) {
        self.components = components
    }

    var isEmpty: Bool { components.isEmpty }

    /// The first key, when the path starts with one.
    var firstKey: String? {
        if case .key(let key)? = components.first { return key }
        return nil
    }

    /// The path without its first component.
    var droppingFirst: PropertyPath { PropertyPath(Array(components.dropFirst())) }

    /// The last key of the path, which names a result column (`contact.name` is `name`).
    var lastKey: String? {
        for component in components.reversed() {
            if case .key(let key) = component { return key }
        }
        return nil
    }

    /// Appends `other` to this path.
    func appending(_ other: PropertyPath) -> PropertyPath {
        PropertyPath(components + other.components)
    }

    /// The SQLite JSON path, `$` followed by ``suffix``.
    var jsonPath: String { "$" + suffix }

    /// The path after `$`: `.key`, `."odd key"`, `[2]`, `[#-1]`.
    var suffix: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                text += PropertyPath.isPlainKey(key) ? ".\(key)" : ".\"\(key)\""
            case .index(let index):
                text += index < 0 ? "[#\(index)]" : "[\(index)]"
            }
        }
        return text
    }

    /// The path as written in a query (`contact.address[0].city`).
    var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                let plain = PropertyPath.isPlainKey(key) && !SQLPPToken.keywords.contains(key.uppercased())
                text += plain ? key : "`\(key.replacingOccurrences(of: "`", with: "``"))`"
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// Keys SQLite's JSON path syntax takes without quotes.
    static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || first.properties.isAlphabetic && first.isASCII
        else {
            return false
        }
        return key.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    /// Checks that SQLite can address every key: its quoted-key syntax has no escape for `"`.
    func validate() throws {
        for case .key(let key) in components where key.contains("\"") || key.isEmpty {
            throw QuireError(
                .invalidQuery,
                "property key '\(key)' in '\(self)' cannot be queried: keys must be non-empty and contain no '\"'")
        }
    }

    /// Parses a Couchbase Lite property path: keys separated by `.`, array indexes in `[n]`,
    /// and `\` escaping a `.`, `[` or `\` that belongs to a key.
    static func parse(_ text: String) throws -> PropertyPath {
        var components: [Component] = []
        var key = ""
        var keyStarted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\\":
                guard let escaped = characters.popFirst() else {
                    throw QuireError(.invalidQuery, "invalid property path '\(text)': '\\' at the end")
                }
                key.append(escaped)
                keyStarted = true
            case ".":
                if keyStarted {
                    components.append(.key(key))
                } else if case .index? = components.last {
                    // `a[0].b`: the dot follows an index.
                } else {
                    throw QuireError(.invalidQuery, "invalid property path '\(text)': empty key")
                }
                key = ""
                keyStarted = false
            case "[":
                if keyStarted {
                    components.append(.key(key))
                    key = ""
                    keyStarted = false
                }
                var digits = ""
                while let next = characters.popFirst(), next != "]" { digits.append(next) }
                guard let index = Int(digits.trimmingSpaces) else {
                    throw QuireError(
                        .invalidQuery, "invalid property path '\(text)': '[\(digits)' is not an array index")
                }
                components.append(.index(index))
            default:
                key.append(character)
                keyStarted = true
            }
        }
        if keyStarted { components.append(.key(key)) }
        if components.isEmpty || text.hasSuffix(".") && !text.hasSuffix("\\.") {
            throw QuireError(.invalidQuery, "invalid property path '\(text)': empty key")
        }
        let path = PropertyPath(components)
        try path.validate()
        return path
    }
}

extension String {
    /// The text without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
