/// Couchbase Lite's rules for scope and collection names.
enum CollectionNaming {
    static let maximumLength = 251

    /// Checks a scope or collection name: 1...251 characters of `A-Z a-z 0-9 _ - %`, not
    /// starting with `_` or `%`. `_default` is valid only where the default is meant, which
    /// the callers decide.
    static func validate(_ name: String, kind: String) throws {
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
                "invalid \(kind) name '\(abbreviated(name))': it must not start with '\(Character(Unicode.Scalar(first)))'")
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
