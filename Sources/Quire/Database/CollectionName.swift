/// A collection's scope and name, with Couchbase Lite's rules for both: 1 to 251 characters
/// of `A-Z a-z 0-9 _ - %`, not starting with `_` or `%`, except `_default`, the default
/// scope's and the default collection's name (the default collection lives only in the
/// default scope).
///
/// Written `scope.collection`, or as a bare `collection` in the `_default` scope.
package struct CollectionName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The default scope's and the default collection's name.
    package static let defaultName = "_default"
    /// `_default._default`.
    package static let `default` = CollectionName(defaultName, scope: defaultName)
    /// The default collection's full name.
    package static let defaultFullName = "_default._default"
    package static let maximumLength = 251

    /// The collection's name.
    package var name: String
    /// The scope's name.
    package var scope: String

    /// Makes a collection name; nothing is checked (``validate(_:kind:)`` does).
    package init(_ name: String, scope: String = CollectionName.defaultName) {
        self.name = name
        self.scope = scope
    }

    /// Reads `scope.collection` (split at the first dot) or a bare collection name.
    package init(fullName: String) {
        if let dot = fullName.firstIndex(of: ".") {
            self.init(String(fullName[fullName.index(after: dot)...]), scope: String(fullName[..<dot]))
        } else {
            self.init(fullName)
        }
    }

    /// `scope.collection`, as Couchbase Lite prints it.
    package var fullName: String { "\(scope).\(name)" }

    /// The full name.
    package var description: String { fullName }

    /// Orders by scope, then name.
    package static func < (lhs: CollectionName, rhs: CollectionName) -> Bool {
        (lhs.scope, lhs.name) < (rhs.scope, rhs.name)
    }

    /// Whether `name` is a valid scope or collection name, `_default` included.
    package static func isValidName(_ name: String) -> Bool {
        name == defaultName || (try? validate(name, kind: "collection")) != nil
    }

    /// `scope.collection` with both parts valid; `_default` as a collection only in the
    /// `_default` scope.
    package static func isValidFullName(_ fullName: String) -> Bool {
        let parts = fullName.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, isValidName(parts[0]), isValidName(parts[1]) else { return false }
        return parts[1] != defaultName || parts[0] == defaultName
    }

    /// Checks a scope or collection name: 1...251 characters of `A-Z a-z 0-9 _ - %`, not
    /// starting with `_` or `%`. `_default` is valid only where the default is meant, which
    /// the callers decide.
    package static func validate(_ name: String, kind: String) throws {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty else {
            throw QuireError(.invalidParameter, "invalid \(kind) name '': a name needs 1 to 251 characters")
        }
        guard bytes.count <= maximumLength else {
            throw QuireError(
                .invalidParameter,
                "invalid \(kind) name '\(abbreviated(name))': \(bytes.count) characters, at most 251 are allowed")
        }
        if let first = bytes.first, first == UInt8(ascii: "_") || first == UInt8(ascii: "%") {
            throw QuireError(
                .invalidParameter,
                "invalid \(kind) name '\(abbreviated(name))': it must not start with '\(Character(Unicode.Scalar(first)))'"
            )
        }
        for (offset, byte) in bytes.enumerated() where !isAllowed(byte) {
            let shown = String(decoding: [byte], as: UTF8.self)
            throw QuireError(
                .invalidParameter,
                "invalid \(kind) name '\(abbreviated(name))': character '\(byte < 0x80 ? shown : "non-ASCII")' at position \(offset + 1) is not one of A-Z a-z 0-9 _ - %"
            )
        }
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }

    private static func abbreviated(_ name: String) -> String {
        name.count > 40 ? String(name.prefix(20)) + "…(\(name.count) characters)" : name
    }
}
