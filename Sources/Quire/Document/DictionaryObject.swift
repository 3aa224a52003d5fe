import Foundation

/// An immutable JSON object inside a document.
public class DictionaryObject: DictionaryProtocol, @unchecked Sendable, Equatable, CustomStringConvertible, Sequence {
    // Safe because `storage` is a constant holding values or an immutable JSONTape; the open
    // class is what keeps the compiler from checking, and the mutable subclass locks.
    /// Built members, or a validated body read lazily (see ``JSONTape``): a document read from
    /// the store builds only what its reader asks for.
    private enum Storage {
        case members(JSONObject, BlobStore?)
        /// The tape carries the blob store: the objects of one read share one tape, while the
        /// store is shared by every reader, and reference counts on an object that several
        /// threads touch at every read cost those threads their scaling.
        case tape(JSONTape, index: Int)
        /// An object inside a stored body, at a byte offset: looked into by path (see
        /// ``StoredJSON``), put on a tape only for what needs all of it.
        case stored(StoredJSON, offset: Int)
    }

    private let storage: Storage

    /// Where the blobs this object refers to are kept.
    var blobStore: BlobStore? {
        switch storage {
        case .members(_, let store): store
        case .tape(let tape, _): tape.blobStore
        case .stored(let body, _): body.blobStore
        }
    }

    init(_ members: JSONObject, blobStore: BlobStore? = nil) {
        self.storage = .members(members, blobStore)
    }

    /// The object at tape position `index` of `tape`, which must be an object.
    init(tape: JSONTape, at index: Int) {
        self.storage = .tape(tape, index: index)
    }

    /// The object at byte `offset` of a stored body, which must be an object's start.
    init(stored body: StoredJSON, at offset: Int) {
        self.storage = .stored(body, offset: offset)
    }

    /// The tape of a stored object, for the calls that need all of it (an empty object when
    /// the stored text is not JSON, which the store never writes).
    private static func tape(of body: StoredJSON, at offset: Int) -> (JSONTape, Int)? {
        guard let tape = body.tape(ofValueAt: offset), tape.kind(at: 0) == .object else { return nil }
        return (tape, 0)
    }

    /// The object as JSON values; mutable subclasses build it from their live contents.
    var jsonObject: JSONObject {
        switch storage {
        case .members(let members, _): members
        case .tape(let tape, let index): tape.read { $0.object(at: index) }
        case .stored(let body, let offset):
            Self.tape(of: body, at: offset).map { tape, index in tape.read { $0.object(at: index) } } ?? [:]
        }
    }

    /// The number of keys.
    public var count: Int {
        switch storage {
        case .members(let members, _): members.count
        case .tape(let tape, let index): tape.read { $0.memberCount(ofObjectAt: index) }
        case .stored(let body, let offset):
            Self.tape(of: body, at: offset).map { tape, index in tape.read { $0.memberCount(ofObjectAt: index) } } ?? 0
        }
    }

    /// The keys present, sorted by their UTF-8 bytes.
    public var keys: [String] {
        switch storage {
        case .members(let members, _): members.sortedMembers.map(\.key)
        case .tape(let tape, let index): Self.byteOrder(tape.read { $0.keys(ofObjectAt: index) })
        case .stored(let body, let offset):
            Self.byteOrder(
                Self.tape(of: body, at: offset).map { tape, index in tape.read { $0.keys(ofObjectAt: index) } } ?? [])
        }
    }

    /// Keys sorted by their UTF-8 bytes (`String`'s own order would compare two spellings of
    /// one text as equal).
    static func byteOrder(_ keys: [String]) -> [String] {
        keys.sorted { JSONKey($0) < JSONKey($1) }
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
        case .stored(let body, let offset):
            switch body.member(key, inObjectAt: offset) {
            case .found(let value): return Self.present(body, at: value)
            case .missing: return nil
            case .needsTape:
                guard let (tape, index) = Self.tape(of: body, at: offset) else { return nil }
                return tape.read { reader in
                    reader.member(key, inObjectAt: index).map { Self.present(tape, reader, at: $0) }
                }
            }
        }
    }

    /// The string at `key` of an object read off a stored body, as `value(forKey:) as? String`
    /// answers it: `.some(nil)` for a missing key or a value of another type; `.none` when
    /// this object is not on a stored body (or its text needs the tape), so the caller asks
    /// ``value(forKey:)``.
    func storedString(forKey key: String) -> String?? {
        guard case .stored(let body, let offset) = storage else { return .none }
        switch body.member(key, inObjectAt: offset) {
        case .found(let value): return .some(body.string(at: value))
        case .missing: return .some(nil)
        case .needsTape: return .none
        }
    }

    /// The dictionary at `key` of an object read off a stored body, as `value(forKey:) as?
    /// DictionaryObject` answers it (a blob is no dictionary); `.none` as for
    /// ``storedString(forKey:)``.
    func storedDictionary(forKey key: String) -> DictionaryObject?? {
        guard case .stored(let body, let offset) = storage else { return .none }
        switch body.member(key, inObjectAt: offset) {
        case .found(let value):
            guard body.byte(at: value) == UInt8(ascii: "{"), !body.isBlob(at: value) else { return .some(nil) }
            return .some(DictionaryObject(stored: body, at: value))
        case .missing: return .some(nil)
        case .needsTape: return .none
        }
    }

    /// ``present(_:blobStore:)`` for a value in a stored body: objects stay in the body,
    /// scalars are parsed where they are.
    private static func present(_ body: StoredJSON, at offset: Int) -> Any? {
        switch body.byte(at: offset) {
        case UInt8(ascii: "{"):
            if body.isBlob(at: offset) {
                guard let tape = body.tape(ofValueAt: offset) else { return nil }
                return Blob(json: tape.read { $0.object(at: 0) }, store: body.blobStore)
            }
            return DictionaryObject(stored: body, at: offset)
        case UInt8(ascii: "\""):
            return body.string(at: offset)
        case UInt8(ascii: "["):
            guard let tape = body.tape(ofValueAt: offset) else { return nil }
            return present(tape.read { $0.value(at: 0) }, blobStore: body.blobStore)
        default:
            return body.scalar(at: offset).map { present($0, blobStore: body.blobStore) }
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
        if case .stored(let body, let offset) = storage, let (tape, index) = Self.tape(of: body, at: offset),
            let text = tape.canonicalText(at: index)
        {
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
