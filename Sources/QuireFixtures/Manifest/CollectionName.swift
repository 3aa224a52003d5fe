/// Couchbase Lite's rules for scope and collection names, as the fixture tools need them.
package enum CollectionName {
    /// The default scope's and collection's name.
    package static let defaultName = "_default"
    /// The default collection's full name.
    package static let defaultFullName = "_default._default"

    /// 1...251 characters of `A-Z a-z 0-9 _ - %`, not starting with `_` or `%`, or `_default`.
    package static func isValidName(_ name: String) -> Bool {
        if name == defaultName { return true }
        let bytes = Array(name.utf8)
        guard (1...251).contains(bytes.count), bytes[0] != UInt8(ascii: "_"), bytes[0] != UInt8(ascii: "%") else { return false }
        return bytes.allSatisfy { byte in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "%")
        }
    }

    /// `scope.collection` with both parts valid; `_default` as a collection only in the `_default` scope.
    package static func isValidFullName(_ fullName: String) -> Bool {
        let parts = fullName.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, isValidName(parts[0]), isValidName(parts[1]) else { return false }
        return parts[1] != defaultName || parts[0] == defaultName
    }
}
