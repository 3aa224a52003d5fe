import Foundation

/// Read access to a JSON array inside a document.
///
/// Typed getters return the type's default for an index out of range or a value of another
/// type, as Couchbase Lite's do.
public protocol ArrayProtocol: AnyObject {
    /// The number of elements.
    var count: Int { get }
    /// The element at `index` (see ``DictionaryProtocol/value(forKey:)``), nil when out of range.
    func value(at index: Int) -> Any?
    /// Plain Swift values.
    func toArray() -> [Any]
    /// The JSON text.
    func toJSON() -> String
}

extension ArrayProtocol {
    /// The string at `index`, or nil.
    public func string(at index: Int) -> String? { value(at: index) as? String }
    /// The number at `index`, or nil.
    public func number(at index: Int) -> NSNumber? { TypedValue.number(value(at: index)) }
    /// The integer at `index`; 0 otherwise.
    public func int(at index: Int) -> Int { TypedValue.int(value(at: index)) }
    /// The 64-bit integer at `index`; 0 otherwise.
    public func int64(at index: Int) -> Int64 { TypedValue.int64(value(at: index)) }
    /// The float at `index`; 0 otherwise.
    public func float(at index: Int) -> Float { Float(TypedValue.double(value(at: index))) }
    /// The double at `index`; 0 otherwise.
    public func double(at index: Int) -> Double { TypedValue.double(value(at: index)) }
    /// The boolean at `index`: false when missing, null, false or a number whose integer part
    /// is zero (0.5 too, as in Couchbase Lite), true otherwise.
    public func boolean(at index: Int) -> Bool { TypedValue.boolean(value(at: index)) }
    /// The ISO-8601 date at `index`, or nil.
    public func date(at index: Int) -> Date? { (value(at: index) as? String).flatMap(ISO8601.date(from:)) }
    /// The array at `index`, or nil.
    public func array(at index: Int) -> ArrayObject? { value(at: index) as? ArrayObject }
    /// The dictionary at `index`, or nil.
    public func dictionary(at index: Int) -> DictionaryObject? { value(at: index) as? DictionaryObject }
    /// The blob at `index`, or nil.
    public func blob(at index: Int) -> Blob? { value(at: index) as? Blob }
    /// Subscript access returning a ``Fragment``.
    public subscript(index: Int) -> Fragment { Fragment(value(at: index)) }
}
