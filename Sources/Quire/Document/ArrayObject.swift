import Foundation

/// An immutable JSON array inside a document.
public class ArrayObject: ArrayProtocol, @unchecked Sendable, Equatable, CustomStringConvertible, Sequence {
    // Safe because its stored properties are constants (the elements are values); the open
    // class is what keeps the compiler from checking, and the mutable subclass locks.
    private let elements: [JSONValue]
    let blobStore: BlobStore?

    init(_ elements: [JSONValue], blobStore: BlobStore? = nil) {
        self.elements = elements
        self.blobStore = blobStore
    }

    /// The array as JSON values.
    var jsonArray: [JSONValue] { elements }

    /// The number of elements.
    public var count: Int { elements.count }

    /// The element at `index`, nil when out of range.
    public func value(at index: Int) -> Any? {
        guard elements.indices.contains(index) else { return nil }
        return DictionaryObject.present(elements[index], blobStore: blobStore)
    }

    /// The elements as plain Swift values (`String`, `Int`, `Double`, `Bool`, `NSNull`, arrays, dictionaries, blobs).
    public func toArray() -> [Any] {
        jsonArray.map { DictionaryObject.plain($0, blobStore: blobStore) }
    }

    /// The array as compact JSON text.
    public func toJSON() -> String {
        (try? JSONWriter.string(.array(jsonArray))) ?? "[]"
    }

    /// A mutable copy; changing it leaves this array as it is.
    public func toMutable() -> MutableArrayObject {
        MutableArrayObject(jsonArray, blobStore: blobStore)
    }

    /// Iterates over the elements as ``value(at:)`` gives them.
    public func makeIterator() -> AnyIterator<Any> {
        var index = 0
        return AnyIterator { [self] in
            defer { index += 1 }
            return index < count ? value(at: index) : nil
        }
    }

    /// The array as compact JSON text, as ``toJSON()`` gives it.
    public var description: String { toJSON() }

    /// Equal when the JSON content is equal.
    public static func == (lhs: ArrayObject, rhs: ArrayObject) -> Bool {
        lhs.jsonArray == rhs.jsonArray
    }
}
