import Foundation

/// An immutable JSON object inside a document.
public class DictionaryObject: DictionaryProtocol, @unchecked Sendable, Equatable, CustomStringConvertible {
    private let members: [String: JSONValue]
    let blobStore: BlobStore?

    init(_ members: [String: JSONValue], blobStore: BlobStore? = nil) {
        self.members = members
        self.blobStore = blobStore
    }

    /// The object as JSON values; mutable subclasses build it from their live contents.
    var jsonObject: [String: JSONValue] { members }

    /// The number of keys.
    public var count: Int { members.count }

    /// The keys, sorted.
    public var keys: [String] { members.keys.sorted() }

    /// The value at `key` (see ``DictionaryProtocol/value(forKey:)``).
    public func value(forKey key: String) -> Any? {
        guard let value = members[key] else { return nil }
        return Self.present(value, blobStore: blobStore)
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

    /// Plain Swift values.
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
        (try? JSONWriter.string(.object(jsonObject))) ?? "{}"
    }

    /// A mutable copy.
    public func toMutable() -> MutableDictionaryObject {
        MutableDictionaryObject(jsonObject, blobStore: blobStore)
    }

    /// The JSON text.
    public var description: String { toJSON() }

    /// Equal when the JSON content is equal.
    public static func == (lhs: DictionaryObject, rhs: DictionaryObject) -> Bool {
        lhs.jsonObject == rhs.jsonObject
    }
}
