import Foundation

extension Database {
    /// Stores the blob's content in this database's blob store, without a document referring
    /// to it yet (Couchbase Lite's `saveBlob`). The replicator uses it to keep a pulled
    /// revision's blobs before the revision itself.
    public func saveBlob(blob: Blob) throws {
        try checkOpen()
        try blob.install(into: blobStore)
    }

    /// The blob that `properties` (a blob reference, `{"@type":"blob","digest":…}`) names,
    /// bound to this database's blob store; nil when the properties are not a blob reference
    /// or this database does not hold its content.
    public func getBlob(properties: [String: Any]) throws -> Blob? {
        try checkOpen()
        guard let json = JSONValue(any: properties)?.objectValue, Blob.isBlob(json: json),
            let digest = json["digest"]?.stringValue
        else { return nil }
        let url = try blobStore.fileURL(forDigest: digest)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return Blob(json: json, store: blobStore)
    }
}
