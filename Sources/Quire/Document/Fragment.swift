import Foundation

/// A value reached by subscripts (`doc["contact"]["address"]["city"].string`), with typed
/// accessors that give the type's default when any step is missing.
public struct Fragment {
    /// The value reached, or nil.
    public let value: Any?

    init(_ value: Any?) { self.value = value }

    /// Whether a value was reached.
    public var exists: Bool { value != nil }
    /// The value as a string, or nil.
    public var string: String? { value as? String }
    /// The value as an integer.
    public var int: Int { TypedValue.int(value) }
    /// The value as a 64-bit integer.
    public var int64: Int64 { TypedValue.int64(value) }
    /// The value as a float.
    public var float: Float { Float(TypedValue.double(value)) }
    /// The value as a double.
    public var double: Double { TypedValue.double(value) }
    /// The value as a boolean.
    public var boolean: Bool { TypedValue.boolean(value) }
    /// The value as a date.
    public var date: Date? { string.flatMap(ISO8601.date(from:)) }
    /// The value as a dictionary.
    public var dictionary: DictionaryObject? { value as? DictionaryObject }
    /// The value as an array.
    public var array: ArrayObject? { value as? ArrayObject }
    /// The value as a blob.
    public var blob: Blob? { value as? Blob }

    /// The member `key` of a dictionary value.
    public subscript(key: String) -> Fragment { Fragment((value as? DictionaryObject)?.value(forKey: key)) }
    /// The element `index` of an array value.
    public subscript(index: Int) -> Fragment { Fragment((value as? ArrayObject)?.value(at: index)) }
}
