import Foundation
import Quire
import QuireFixtures

/// One document read from a `.jsonl` file.
public struct DatasetDocument: Sendable {
    /// The document ID.
    public var id: String
    /// The 1-based line it came from.
    public var line: Int
    /// The body without `_id`, with numbers as written (`1` and `1.0` stay apart) and keys
    /// kept byte for byte (two spellings of one text are two keys).
    package var body: JSONObject {
        get {
            switch storage {
            case .members(let members):
                return members
            case .canonical(let text):
                // Checked canonical when the line was read, so it parses; an empty object
                // stands in only if that ever failed.
                guard case .object(let members)? = try? JSONReader.parse(text) else { return JSONObject() }
                return members
            }
        }
        set { storage = .members(newValue) }
    }
    /// The body's canonical JSON text, when the line held it as it is: the body is then taken
    /// as that text, with no parsing and writing again.
    package var canonicalJSON: String? {
        if case .canonical(let text) = storage { text } else { nil }
    }
    /// Every blob reference (`{"@type": "blob", "digest": ...}`) anywhere in the body, depth
    /// first with keys in sorted order.
    public var blobReferences: [DatasetBlobReference]

    private var storage: Storage

    private enum Storage: Sendable {
        case members(JSONObject)
        case canonical(String)
    }

    /// Makes a document.
    package init(id: String, line: Int, body: JSONObject, blobReferences: [DatasetBlobReference]) {
        self.id = id
        self.line = line
        self.storage = .members(body)
        self.blobReferences = blobReferences
    }

    /// Makes a document of a body built in code.
    package init(id: String, line: Int, body: [String: JSONValue], blobReferences: [DatasetBlobReference]) {
        self.init(id: id, line: line, body: JSONObject(body), blobReferences: blobReferences)
    }

    /// Makes a document of a body that is canonical JSON text without blob references, as
    /// ``CanonicalDatasetLine`` finds it.
    package init(id: String, line: Int, canonicalJSON: String) {
        self.id = id
        self.line = line
        self.storage = .canonical(canonicalJSON)
        self.blobReferences = []
    }

    /// The body as Foundation values (the shape `MutableDocument(id:data:)` and
    /// `JSONSerialization` take).
    public var properties: [String: Any] {
        body.mapValues(\.anyValue)
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

    /// Every blob reference inside `value`, depth first, object keys in UTF-8 order.
    ///
    /// - Throws: `QuireError.corruptData` for a blob object without a valid `sha1-` digest.
    static func all(in value: JSONValue) throws -> [DatasetBlobReference] {
        // Most documents hold no blob: find that out without sorting any keys.
        guard mentionsBlob(value) else { return [] }
        var found: [DatasetBlobReference] = []
        func visit(_ value: JSONValue) throws {
            switch value {
            case .object(let members):
                if isBlob(members) {
                    guard let digest = members["digest"]?.stringValue, DatasetBlobName.isValidDigest(digest) else {
                        throw QuireError(.corruptData, "has a blob without a valid 'sha1-' digest")
                    }
                    found.append(
                        DatasetBlobReference(
                            digest: digest, length: members["length"]?.int64Value,
                            contentType: members["content_type"]?.stringValue))
                    return
                }
                for key in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                    if let child = members[key] { try visit(child) }
                }
            case .array(let elements):
                for element in elements { try visit(element) }
            default:
                break
            }
        }
        try visit(value)
        return found
    }

    /// Whether an object's members make it a blob reference: `"@type": "blob"`.
    private static func isBlob(_ members: JSONObject) -> Bool {
        members["@type"] == .string("blob")
    }

    /// Whether some object inside `value` is a blob reference.
    private static func mentionsBlob(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members):
            isBlob(members) || members.values.contains { mentionsBlob($0) }
        case .array(let elements):
            elements.contains { mentionsBlob($0) }
        default:
            false
        }
    }
}
