import Foundation

/// A place in a mutable document reached by subscripts, which can be read and set
/// (`doc["address"]["city"].value = "Oslo"`), as Couchbase Lite's `MutableFragment`.
///
/// Setting a member of a dictionary adds or replaces it; setting an element of an array
/// replaces it when the index is in range. A place under a value that is missing or is not a
/// container, or an index out of range, ignores what is set.
public struct MutableFragment {
    private enum Place {
        case member(any MutableDictionaryProtocol, String)
        case element(any MutableArrayProtocol, Int)
        case nowhere
    }

    private let place: Place

    private init(_ place: Place) { self.place = place }

    init(_ dictionary: any MutableDictionaryProtocol, key: String) { self.init(.member(dictionary, key)) }
    init(_ array: any MutableArrayProtocol, index: Int) { self.init(.element(array, index)) }

    /// The value here, or nil; setting it stores the value (the types
    /// ``MutableDictionaryProtocol/setValue(_:forKey:)`` accepts), nil storing JSON null.
    public var value: Any? {
        get {
            switch place {
            case .member(let dictionary, let key): dictionary.value(forKey: key)
            case .element(let array, let index): array.value(at: index)
            case .nowhere: nil
            }
        }
        nonmutating set {
            switch place {
            case .member(let dictionary, let key): dictionary.setValue(newValue, forKey: key)
            case .element(let array, let index): array.setValue(newValue, at: index)
            case .nowhere: break
            }
        }
    }

    private var reading: Fragment { Fragment(value) }

    /// Whether a value is here.
    public var exists: Bool { value != nil }
    /// The value as a string, or nil.
    public var string: String? { reading.string }
    /// The value as an integer.
    public var int: Int { reading.int }
    /// The value as a 64-bit integer.
    public var int64: Int64 { reading.int64 }
    /// The value as a float.
    public var float: Float { reading.float }
    /// The value as a double.
    public var double: Double { reading.double }
    /// The value as a boolean.
    public var boolean: Bool { reading.boolean }
    /// The value as a date.
    public var date: Date? { reading.date }
    /// The value as a blob.
    public var blob: Blob? { reading.blob }
    /// The dictionary here, mutable and live, or nil.
    public var dictionary: MutableDictionaryObject? { value as? MutableDictionaryObject }
    /// The array here, mutable and live, or nil.
    public var array: MutableArrayObject? { value as? MutableArrayObject }

    /// The member `key` of the dictionary here.
    public subscript(key: String) -> MutableFragment {
        dictionary.map { MutableFragment($0, key: key) } ?? MutableFragment(.nowhere)
    }

    /// The element `index` of the array here.
    public subscript(index: Int) -> MutableFragment {
        array.map { MutableFragment($0, index: index) } ?? MutableFragment(.nowhere)
    }
}

extension MutableDictionaryProtocol {
    /// The member `key` as a ``MutableFragment``, to read or set (`doc["a"]["b"].value = 1`).
    public subscript(key: String) -> MutableFragment { MutableFragment(self, key: key) }
}

extension MutableArrayProtocol {
    /// The element `index` as a ``MutableFragment``, to read or set.
    public subscript(index: Int) -> MutableFragment { MutableFragment(self, index: index) }
}
