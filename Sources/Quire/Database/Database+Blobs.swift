import Foundation

extension Database {
    /// Stores `blob`'s content in this database without a document referring to it, so that
    /// a document can refer to it later by its properties (see ``getBlob(properties:)``).
    ///
    /// Content no document refers to is deleted by the next ``performMaintenance(type:)``
    /// with `.compact`, as in Couchbase Lite.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` when the database is closed; a POSIX error when the
    ///   content cannot be read or written; ``QuireError/Code/corruptData`` when stored content
    ///   does not match its digest.
    public func saveBlob(blob: Blob) throws {
        try checkOpen()
        try blob.install(into: blobStore)
    }

    /// The blob that `properties` (a blob's ``Blob/properties``, or the dictionary stored in
    /// a document) describe, or nil when this database does not hold its content.
    ///
    /// Throws invalidParameter when `properties` are not a blob's (``Blob/isBlob(properties:)``:
    /// `"@type": "blob"`, a `digest` string, a string `content_type` and a numeric `length`
    /// when present) or the length is not a non-negative integer. A digest that is not a
    /// `sha1-` digest names no stored content: the result is nil, as in Couchbase Lite.
    /// Reading the blob's content checks it against that length and digest.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` when `properties` do not describe a blob.
    public func getBlob(properties: [String: Any]) throws -> Blob? {
        try checkOpen()
        guard Blob.isBlob(properties: properties) else {
            throw QuireError(
                .invalidParameter,
                "not blob properties: expected \"@type\": \"blob\", a \"digest\" string, and a string \"content_type\" "
                    + "and a numeric \"length\" if present; got keys \(properties.keys.sorted())")
        }
        var json = JSONObject(minimumCapacity: properties.count)
        for (key, value) in properties {
            guard let converted = JSONValue(any: value) else {
                throw QuireError(.invalidParameter, "blob property '\(key)' has a value with no JSON form: \(value)")
            }
            json[key] = converted
        }
        let store = blobStore
        let digest = json["digest"]?.stringValue ?? ""
        guard (try? store.fileURL(forDigest: digest)) != nil else { return nil }
        guard let size = store.fileSize(digest: digest) else { return nil }
        if let length = json["length"] {
            guard let value = length.int64Value, value >= 0 else {
                throw QuireError(
                    .invalidParameter, "blob property 'length' must be a non-negative integer, got \(length)")
            }
        } else {
            json["length"] = .int(Int64(size))
        }
        return Blob(json: json, store: store)
    }
}
