import Foundation

/// Couchbase Lite's rules for document IDs and bodies.
package enum DocumentRules {
    /// Top-level keys a body may not have: they are revision metadata in the replication
    /// protocol. `_attachments` and `_removed` are allowed, as in Couchbase Lite.
    static let reservedKeys: Set<String> = ["_id", "_rev", "_deleted"]

    /// The longest document ID, in UTF-8 bytes (LiteCore's `kMaxDocIDLength`).
    static let maximumIDLength = 240

    /// LiteCore's `C4Document::isValidDocID`: 1 to 240 bytes of UTF-8, not starting with
    /// `_` (the prefix CouchDB keeps for `_design/`, `_local/` and its own metadata), and no
    /// control character (no byte below 0x20, so no NUL). Every entry point that takes a
    /// document ID applies it (save, get, delete, purge, expiration, incoming revisions), as
    /// Couchbase Lite's do, so an ID that could never be saved is refused as such instead of
    /// being reported missing.
    package static func validate(id: String) throws {
        if let problem = problem(with: id) {
            throw QuireError(.badDocID, "invalid document ID \(quoted(id)): \(problem)")
        }
    }

    /// Whether `id` follows the rules of ``validate(id:)``.
    static func isValid(id: String) -> Bool { problem(with: id) == nil }

    private static func problem(with id: String) -> String? {
        let length = id.utf8.count
        if length == 0 { return "an ID needs at least one character" }
        if length > maximumIDLength { return "\(length) bytes of UTF-8, at most \(maximumIDLength) are allowed" }
        if id.utf8.first == UInt8(ascii: "_") { return "an ID cannot start with '_'" }
        // Through the contiguous bytes: the UTF-8 view's iterator cost more than the read it guards.
        let control = id.utf8.withContiguousStorageIfAvailable { $0.first { $0 < 0x20 } } ?? id.utf8.first { $0 < 0x20 }
        if let control {
            return "it holds the control character U+\(String(format: "%04X", control)); no byte below 0x20 is allowed"
        }
        return nil
    }

    /// The ID for a message: JSON-style escapes for control characters, cut after 40 characters.
    private static func quoted(_ id: String) -> String {
        var text = ""
        for scalar in id.unicodeScalars.prefix(40) {
            switch scalar.value {
            case 0x22: text += "\\\""
            case 0x5C: text += "\\\\"
            case 0..<0x20: text += String(format: "\\u%04X", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return "\"" + text + (id.unicodeScalars.count > 40 ? "…" : "") + "\""
    }

    static func checkReservedKeys(_ body: JSONObject, id: String) throws {
        try checkReservedKeys(id: id) { body.keys.contains($0) }
    }

    static func checkReservedKeys(_ body: [String: JSONValue], id: String) throws {
        for key in body.keys where reservedKeys.contains(key) {
            throw reservedKeyError(key, id: id)
        }
    }

    /// The same check for a body that answers whether it has a top-level key.
    static func checkReservedKeys(id: String, hasKey: (String) -> Bool) throws {
        for key in ["_id", "_rev", "_deleted"] where hasKey(key) {
            throw reservedKeyError(key, id: id)
        }
    }

    private static func reservedKeyError(_ key: String, id: String) -> QuireError {
        QuireError(
            .corruptRevisionData,
            "document '\(id)' has the reserved top-level key '\(key)'; _id, _rev and _deleted cannot be saved in a body"
        )
    }
}
