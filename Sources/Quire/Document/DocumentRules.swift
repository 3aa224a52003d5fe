/// Couchbase Lite's rules for document IDs and bodies.
enum DocumentRules {
    /// Top-level keys a body may not have: they are revision metadata in the replication
    /// protocol. `_attachments` and `_removed` are allowed, as in Couchbase Lite.
    static let reservedKeys: Set<String> = ["_id", "_rev", "_deleted"]

    /// The longest document ID, in UTF-8 bytes.
    static let maximumIDLength = 250

    static func validate(id: String) throws {
        let length = id.utf8.count
        guard length > 0 else {
            throw QuireError(.badDocID, "invalid document ID '': an ID needs at least one character")
        }
        guard length <= maximumIDLength else {
            throw QuireError(
                .badDocID, "invalid document ID '\(id.prefix(20))…': \(length) bytes, at most \(maximumIDLength) are allowed")
        }
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
            "document '\(id)' has the reserved top-level key '\(key)'; _id, _rev and _deleted cannot be saved in a body")
    }
}
