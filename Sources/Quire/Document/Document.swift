import Foundation

/// A saved document, read from a collection: immutable; ``toMutable()`` gives a copy to edit.
public class Document: DictionaryProtocol, @unchecked Sendable, CustomStringConvertible {
    /// The document's ID.
    public let id: String
    /// The current revision ID (`<generation>-<hex digest>`), nil for a document never saved.
    public internal(set) var revisionID: String?
    /// The collection sequence of the current revision, 0 for a document never saved.
    public internal(set) var sequence: UInt64
    /// The collection the document was read from or saved to.
    public internal(set) var collection: Collection?
    /// Whether the current revision is a deletion (tombstone).
    public internal(set) var isDeleted: Bool
    var content: DictionaryObject

    init(
        id: String, revisionID: String?, sequence: UInt64, isDeleted: Bool, collection: Collection?,
        content: DictionaryObject
    ) {
        self.id = id
        self.revisionID = revisionID
        self.sequence = sequence
        self.isDeleted = isDeleted
        self.collection = collection
        self.content = content
    }

    /// The number of top-level keys.
    public var count: Int { content.count }
    /// The top-level keys, sorted.
    public var keys: [String] { content.keys }
    /// The value at `key` (see ``DictionaryProtocol/value(forKey:)``).
    public func value(forKey key: String) -> Any? { content.value(forKey: key) }
    /// The body as plain Swift values.
    public func toDictionary() -> [String: Any] { content.toDictionary() }
    /// The body as JSON text, keys sorted.
    public func toJSON() -> String { content.toJSON() }

    /// A mutable copy carrying this revision, so a save can detect conflicting changes.
    public func toMutable() -> MutableDocument {
        MutableDocument(copying: self)
    }

    /// The ID, revision and body.
    public var description: String { "\(id)@\(revisionID ?? "unsaved") \(toJSON())" }
}
