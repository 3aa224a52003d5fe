import Foundation

/// A saved document, read from a collection: immutable; ``toMutable()`` gives a copy to edit.
///
/// Documents are Sendable, and every one of their calls is safe from any thread: as
/// Couchbase Lite advises, pass a `Document` (a snapshot of one revision) between threads,
/// and edit a ``MutableDocument`` on one thread at a time. The metadata that a save or a
/// delete updates on the object (``revisionID``, ``sequence``, ``isDeleted``,
/// ``collection``) is behind a lock.
public class Document: DictionaryProtocol, @unchecked Sendable, CustomStringConvertible, Equatable, Sequence {
    // Safe because `id` and `content` are constants, the metadata that saves and deletes
    // change is only reached through `metadata`'s lock, and `content` is either immutable
    // (DictionaryObject) or locks its own state (MutableDictionaryObject).
    private struct Metadata {
        var revisionID: String?
        var sequence: UInt64
        var collection: Collection?
        var isDeleted: Bool
    }

    /// The document's ID.
    public let id: String
    private let metadata: Locked<Metadata>
    let content: DictionaryObject

    /// The current revision ID (`<generation>-<hex digest>`), nil for a document never saved.
    public var revisionID: String? { metadata.withLock { $0.revisionID } }
    /// The collection sequence of the current revision, 0 for a document never saved.
    public var sequence: UInt64 { metadata.withLock { $0.sequence } }
    /// The collection the document was read from or saved to.
    public var collection: Collection? { metadata.withLock { $0.collection } }
    /// Whether the current revision is a deletion (tombstone).
    public var isDeleted: Bool { metadata.withLock { $0.isDeleted } }

    init(
        id: String, revisionID: String?, sequence: UInt64, isDeleted: Bool, collection: Collection?,
        content: DictionaryObject
    ) {
        self.id = id
        self.metadata = Locked(
            Metadata(revisionID: revisionID, sequence: sequence, collection: collection, isDeleted: isDeleted))
        self.content = content
    }

    /// Updates the metadata after a save or a delete, all at once, so no reader on another
    /// thread sees a revision ID with the sequence of another.
    func updateMetadata(revisionID: String?, sequence: UInt64, collection: Collection?, isDeleted: Bool) {
        metadata.withLock { metadata in
            metadata = Metadata(
                revisionID: revisionID, sequence: sequence, collection: collection, isDeleted: isDeleted)
        }
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

    /// Iterates over the top-level keys, in the order of ``keys`` (`for key in document`).
    public func makeIterator() -> IndexingIterator<[String]> { keys.makeIterator() }

    /// Equal, as in Couchbase Lite, when both belong to the same collection of the same file
    /// (or neither belongs to one yet), have the same ID and the same body; the revision is not
    /// compared, so a saved document equals the mutable object it was saved from.
    public static func == (lhs: Document, rhs: Document) -> Bool {
        if lhs === rhs { return true }
        let (left, right) = (lhs.collection, rhs.collection)
        if left != nil || right != nil {
            guard let left, let right, left == right else { return false }
        }
        return lhs.id == rhs.id && lhs.content == rhs.content
    }
}
