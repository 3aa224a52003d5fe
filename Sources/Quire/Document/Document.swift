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
    // change is only reached inside `withMetadata` (its stripe's lock), and `content` is either
    // immutable (DictionaryObject) or locks its own state (MutableDictionaryObject).
    private struct Metadata {
        /// The revision ID, or the body read with it that still holds it as bytes: a reader of
        /// one property never asks for it, and its string (over 40 bytes) cost an allocation.
        var revision: Revision
        var sequence: UInt64
        var collection: Collection?
        var isDeleted: Bool

        /// The revision ID, made a string once.
        mutating func revisionID() -> String? {
            switch revision {
            case .text(let text): return text
            case .stored(let body):
                let text = body.revisionID
                revision = .text(text)
                return text
            }
        }
    }

    private enum Revision {
        case text(String?)
        case stored(StoredJSON)
    }

    /// The document's ID.
    public let id: String
    /// Guarded by the lock of this object's stripe (see ``withMetadata(_:)``).
    private var metadata: Metadata
    let content: DictionaryObject

    /// The current revision ID (`<generation>-<hex digest>`), nil for a document never saved.
    public var revisionID: String? { withMetadata { $0.revisionID() } }
    /// The collection sequence of the current revision, 0 for a document never saved.
    public var sequence: UInt64 { withMetadata { $0.sequence } }
    /// The collection the document was read from or saved to.
    public var collection: Collection? { withMetadata { $0.collection } }
    /// Whether the current revision is a deletion (tombstone).
    public var isDeleted: Bool { withMetadata { $0.isDeleted } }

    init(
        id: String, revisionID: String?, sequence: UInt64, isDeleted: Bool, collection: Collection?,
        content: DictionaryObject
    ) {
        self.id = id
        self.metadata = Metadata(
            revision: .text(revisionID), sequence: sequence, collection: collection, isDeleted: isDeleted)
        self.content = content
    }

    /// A live document read from the store: its revision ID is the one `body` was made with
    /// (see ``StoredJSON/make(copying:revisionID:blobStore:)``), and `content` reads `body`.
    init(id: String, revisionOf body: StoredJSON, sequence: UInt64, collection: Collection, content: DictionaryObject) {
        self.id = id
        self.metadata = Metadata(revision: .stored(body), sequence: sequence, collection: collection, isDeleted: false)
        self.content = content
    }

    /// Locks for the metadata of every document, one per stripe of objects' addresses: a lock
    /// of its own cost each document read an allocation (and a mutex to set up and tear down),
    /// while the metadata is read rarely and changed only by saves and deletes.
    private static let metadataLocks: [Locked<Void>] = (0..<64).map { _ in Locked(()) }

    /// Runs `body` on the metadata with its stripe's lock held; `body` must not reach the
    /// metadata of another document.
    private func withMetadata<T>(_ body: (inout Metadata) -> T) -> T {
        let stripe = Int(truncatingIfNeeded: UInt(bitPattern: ObjectIdentifier(self)) >> 4) & 63
        return Self.metadataLocks[stripe].withLock { body(&metadata) }
    }

    /// Updates the metadata after a save or a delete, all at once, so no reader on another
    /// thread sees a revision ID with the sequence of another.
    func updateMetadata(revisionID: String?, sequence: UInt64, collection: Collection?, isDeleted: Bool) {
        withMetadata { metadata in
            metadata = Metadata(
                revision: .text(revisionID), sequence: sequence, collection: collection, isDeleted: isDeleted)
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
