import Foundation

/// Binary content stored beside the documents that refer to it.
///
/// In a document a blob is the object `{"@type":"blob","digest":"sha1-…","length":N,
/// "content_type":"…"}`; its bytes are kept once per database, content-addressed, under the
/// database's `Attachments/` folder, and written before the document that refers to them.
public final class Blob: @unchecked Sendable, Equatable, CustomStringConvertible {
    /// The MIME type given when the blob was made, if any.
    public let contentType: String?
    private let lock = NSLock()
    private var pendingContent: Data?
    private var knownDigest: String?
    private var knownLength: UInt64
    private var store: BlobStore?

    /// A blob holding `data` in memory until its document is saved.
    public init(contentType: String, data: Data) {
        self.contentType = contentType
        pendingContent = data
        knownLength = UInt64(data.count)
        knownDigest = BlobStore.digest(of: data)
    }

    init(json: [String: JSONValue], store: BlobStore?) {
        contentType = json["content_type"]?.stringValue
        knownDigest = json["digest"]?.stringValue
        knownLength = UInt64(max(0, json["length"]?.int64Value ?? 0))
        self.store = store
    }

    /// The number of bytes.
    public var length: UInt64 { lock.withLock { knownLength } }

    /// `sha1-<base64 of the SHA-1 of the content>`.
    public var digest: String? { lock.withLock { knownDigest } }

    /// The content: from memory for a new blob, else read from the database's blob store
    /// (checked against the length and digest); nil when it cannot be read.
    public var content: Data? {
        try? readContent()
    }

    /// The content, or the reason it cannot be read (missing file, length or digest mismatch).
    public func readContent() throws -> Data {
        let (pending, store, digest, length) = lock.withLock { (pendingContent, self.store, knownDigest, knownLength) }
        if let pending { return pending }
        guard let store, let digest else {
            throw QuireError(.notFound, "blob \(knownDigest ?? "without digest") is not attached to a database")
        }
        return try store.read(digest: digest, length: length)
    }

    /// The dictionary stored in documents for this blob.
    public var properties: [String: Any] {
        jsonProperties.mapValues(\.plainValue)
    }

    var jsonProperties: [String: JSONValue] {
        lock.withLock {
            var properties: [String: JSONValue] = [
                "@type": "blob",
                "length": .int(Int64(knownLength)),
            ]
            if let knownDigest { properties["digest"] = .string(knownDigest) }
            if let contentType { properties["content_type"] = .string(contentType) }
            return properties
        }
    }

    /// Whether a dictionary is a blob reference (`"@type": "blob"` with a digest).
    public static func isBlob(properties: [String: Any]) -> Bool {
        (properties["@type"] as? String) == "blob" && properties["digest"] is String
    }

    static func isBlob(json: [String: JSONValue]) -> Bool {
        json["@type"] == .string("blob") && json["digest"]?.stringValue != nil
    }

    /// Writes pending content into `store` (before the document that refers to it is saved).
    func install(into store: BlobStore) throws {
        let pending = lock.withLock { pendingContent }
        if let pending {
            let digest = try store.write(pending)
            lock.withLock {
                knownDigest = digest
                self.store = store
            }
        } else if lock.withLock({ self.store == nil }) {
            lock.withLock { self.store = store }
        }
    }

    /// Equal when digests are equal.
    public static func == (lhs: Blob, rhs: Blob) -> Bool { lhs.digest == rhs.digest }

    /// The blob's properties as text.
    public var description: String {
        "Blob(\(contentType ?? "?"), \(length) bytes, \(digest ?? "no digest"))"
    }
}
