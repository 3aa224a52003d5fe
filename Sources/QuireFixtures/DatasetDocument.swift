import Foundation

/// One document read from a dataset's `.jsonl` file.
public struct DatasetDocument {
    /// The document ID (the line's `_id`).
    public var id: String
    /// The 1-based line it came from.
    public var line: Int
    /// The body without `_id`, as `JSONSerialization` parses it (the shape
    /// `MutableDocument(id:data:)` takes).
    public var properties: [String: Any]
    /// Every blob reference (`{"@type": "blob", "digest": ...}`) anywhere in the body, depth
    /// first with keys in sorted order.
    public var blobReferences: [DatasetBlobReference]

    /// Makes a document.
    public init(id: String, line: Int, properties: [String: Any], blobReferences: [DatasetBlobReference]) {
        self.id = id
        self.line = line
        self.properties = properties
        self.blobReferences = blobReferences
    }
}

/// A blob reference inside a dataset document.
public struct DatasetBlobReference: Sendable, Equatable, Hashable {
    /// `sha1-<base64>`.
    public var digest: String
    /// The declared length in bytes, when given.
    public var length: Int64?
    /// The declared content type, when given.
    public var contentType: String?

    /// Makes a reference.
    public init(digest: String, length: Int64?, contentType: String?) {
        self.digest = digest
        self.length = length
        self.contentType = contentType
    }
}
