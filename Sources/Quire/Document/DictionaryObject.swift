import Foundation

/// An immutable JSON object inside a document.
public class DictionaryObject: DictionaryProtocol, @unchecked Sendable, Equatable, CustomStringConvertible, Sequence {
    // Safe because `storage` is a constant holding values or an immutable JSONTape; the open
    // class is what keeps the compiler from checking, and the mutable subclass locks.
    /// Built members, or a validated body read lazily (see ``JSONTape``): a document read from
    /// the store builds only what its reader asks for.
    private enum Storage {
        case members([String: JSONValue], BlobStore?)
        /// The tape carries the blob store: the objects of one read share one tape, while the
        /// store is shared by every reader, and reference counts on an object that several
        /// threads touch at every read cost those threads their scaling.
        case tape(JSONTape, index: Int)
    }

    private let storage: Storage

    /// Where the blobs this object refers to are kept.
    var blobStore: BlobStore? {
        switch storage {
        case .members(_, let store): store
        case .tape(let tape, _): tape.blobStore
        }
    }

    init(_ members: [String: JSONValue], blobStore: BlobStore? = nil) {
        self.storage = .members(members, blobStore)
    }

    /// The object at tape position `index` of `tape`, which must be an object.
    init(tape: JSONTape, at index: Int) {
        self.storage = .tape(tape, index: index)
    }

    /// The object as JSON values; mutable subclasses build it from their live contents.
    var jsonObject: [String: JSONValue] {
        switch storage {
        case .members(let members, _): members
        case .tape(let tape, let index): tape.read { $0.object(at: index) }
        }
    }

    /// The number of keys.
    public var count: Int {
        switch storage {
        case .members(let members, _): members.count
        case .tape(let tape, let index): tape.read { $0.memberCount(ofObjectAt: index) }
        }
    }

    /// The keys present, sorted by their UTF-8 bytes.
    public var keys: [String] {
        switch storage {
        case .members(let members, _): members.keys.sorted()
        case .tape(let tape, let index): tape.read { $0.keys(ofObjectAt: index) }.sorted()
        }
    }

    /// The value at `key` (see ``DictionaryProtocol/value(forKey:)``).
    public func value(forKey key: String) -> Any? {
        switch storage {
        case .members(let members, let blobStore):
            guard let value = members[key] else { return nil }
            return Self.present(value, blobStore: blobStore)
        case .tape(let tape, let index):
            return tape.read { reader in
                reader.member(key, inObjectAt: index).map { Self.present(tape, reader, at: $0) }
            }
        }
    }

    static func present(_ value: JSONValue, blobStore: BlobStore?) -> Any {
        switch value {
        case .object(let members):
            if Blob.isBlob(json: members) { return Blob(json: members, store: blobStore) }
            return DictionaryObject(members, blobStore: blobStore)
        case .array(let elements):
            return ArrayObject(elements, blobStore: blobStore)
        default:
            return value.publicValue
        }
    }

    /// ``present(_:blobStore:)`` for a value on a tape: objects stay on the tape.
    private static func present(_ tape: JSONTape, _ reader: JSONTapeReader, at index: Int) -> Any {
        switch tape.kind(at: index) {
        case .object:
            if reader.isBlob(at: index) { return Blob(json: reader.object(at: index), store: tape.blobStore) }
            return DictionaryObject(tape: tape, at: index)
        case .string:
            return reader.string(at: index)
        default:
            return present(reader.value(at: index), blobStore: tape.blobStore)
        }
    }

    /// The content as plain Swift values (`String`, `Int`, `Double`, `Bool`, `NSNull`, arrays, dictionaries, blobs).
    public func toDictionary() -> [String: Any] {
        jsonObject.mapValues { Self.plain($0, blobStore: blobStore) }
    }

    static func plain(_ value: JSONValue, blobStore: BlobStore?) -> Any {
        switch value {
        case .array(let elements): return elements.map { plain($0, blobStore: blobStore) }
        case .object(let members):
            if Blob.isBlob(json: members) { return Blob(json: members, store: blobStore) }
            return members.mapValues { plain($0, blobStore: blobStore) }
        default: return value.publicValue
        }
    }

    /// The JSON text, keys sorted.
    public func toJSON() -> String {
        if case .tape(let tape, let index) = storage, let text = tape.canonicalText(at: index) {
            return text
        }
        return (try? JSONWriter.string(.object(jsonObject))) ?? "{}"
    }

    /// A mutable copy; changing it leaves this dictionary as it is.
    public func toMutable() -> MutableDictionaryObject {
        MutableDictionaryObject(jsonObject, blobStore: blobStore)
    }

    /// The dictionary as compact JSON text, as `toJSON()` gives it.
    public var description: String { toJSON() }

    /// Iterates over the keys, in the order of ``keys`` (`for key in dictionary`).
    public func makeIterator() -> IndexingIterator<[String]> { keys.makeIterator() }

    /// Equal when the JSON content is equal.
    public static func == (lhs: DictionaryObject, rhs: DictionaryObject) -> Bool {
        lhs.jsonObject == rhs.jsonObject
    }
}
