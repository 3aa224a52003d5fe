import Foundation

/// Read access to a JSON object: documents, dictionaries inside them, and their mutable forms.
///
/// Typed getters return the type's default when the key is missing or holds another type
/// (0, 0.0, false, nil), as Couchbase Lite's do.
public protocol DictionaryProtocol: AnyObject {
    /// The number of keys.
    var count: Int { get }
    /// The keys, in no particular order.
    var keys: [String] { get }
    /// The value at `key`: a Swift scalar, `NSNull`, a ``DictionaryObject``, an
    /// ``ArrayObject`` or a ``Blob``; nil when the key is missing.
    func value(forKey key: String) -> Any?
    /// Plain Swift values (`[String: Any]`, `[Any]`), blobs as ``Blob``.
    func toDictionary() -> [String: Any]
    /// The JSON text, with keys sorted.
    func toJSON() -> String
}

extension DictionaryProtocol {
    /// Whether `key` is present (a null value counts as present).
    public func contains(key: String) -> Bool { value(forKey: key) != nil }

    /// The string at `key`, or nil.
    public func string(forKey key: String) -> String? {
        if let answer = storedContent?.storedString(forKey: key) { return answer }
        return value(forKey: key) as? String
    }

    /// The number at `key` (booleans count as 0 or 1), or nil.
    public func number(forKey key: String) -> NSNumber? { TypedValue.number(value(forKey: key)) }

    /// The integer at `key`, truncating a double; 0 otherwise.
    public func int(forKey key: String) -> Int { TypedValue.int(value(forKey: key)) }

    /// The 64-bit integer at `key`, truncating a double; 0 otherwise.
    public func int64(forKey key: String) -> Int64 { TypedValue.int64(value(forKey: key)) }

    /// The number at `key` as a float; 0 otherwise.
    public func float(forKey key: String) -> Float { Float(TypedValue.double(value(forKey: key))) }

    /// The number at `key` as a double; 0 otherwise.
    public func double(forKey key: String) -> Double { TypedValue.double(value(forKey: key)) }

    /// The value at `key` as a boolean: false when missing, null, false or a number whose
    /// integer part is zero (0.5 too, as in Couchbase Lite), true otherwise.
    public func boolean(forKey key: String) -> Bool { TypedValue.boolean(value(forKey: key)) }

    /// The ISO-8601 date at `key`, or nil.
    public func date(forKey key: String) -> Date? { (value(forKey: key) as? String).flatMap(ISO8601.date(from:)) }

    /// The array at `key`, or nil.
    public func array(forKey key: String) -> ArrayObject? { value(forKey: key) as? ArrayObject }

    /// The dictionary at `key`, or nil.
    public func dictionary(forKey key: String) -> DictionaryObject? {
        if let answer = storedContent?.storedDictionary(forKey: key) { return answer }
        return value(forKey: key) as? DictionaryObject
    }

    /// The object read off a stored body behind a document or dictionary read from the store,
    /// whose typed getters then read the body in place: no `Any` to box and cast back. Exact
    /// classes only (a metadata comparison, no dynamic cast); the mutable subclasses keep
    /// their own `value(forKey:)`.
    private var storedContent: DictionaryObject? {
        let object = self as AnyObject
        if type(of: object) == Document.self { return unsafeDowncast(object, to: Document.self).content }
        if type(of: object) == DictionaryObject.self { return unsafeDowncast(object, to: DictionaryObject.self) }
        return nil
    }

    /// The blob at `key`, or nil.
    public func blob(forKey key: String) -> Blob? { value(forKey: key) as? Blob }

    /// Subscript access returning a ``Fragment`` for chained, optional-free reads.
    public subscript(key: String) -> Fragment { Fragment(value(forKey: key)) }
}

/// The conversions typed getters share.
enum TypedValue {
    static func number(_ value: Any?) -> NSNumber? {
        switch value {
        case let value as Bool: return NSNumber(value: value)
        case let value as Int: return NSNumber(value: value)
        case let value as Int64: return NSNumber(value: value)
        case let value as Double: return NSNumber(value: value)
        case let value as Float: return NSNumber(value: value)
        default: return nil
        }
    }

    static func int64(_ value: Any?) -> Int64 {
        switch value {
        case let value as Int: return Int64(value)
        case let value as Int64: return value
        case let value as Double:
            guard value.isFinite else { return 0 }
            if value >= 9.223372036854775807e18 { return Int64.max }
            if value <= -9.223372036854775808e18 { return Int64.min }
            return Int64(value)
        case let value as Float: return int64(Double(value))
        case let value as Bool: return value ? 1 : 0
        default: return 0
        }
    }

    static func int(_ value: Any?) -> Int { Int(truncatingIfNeeded: int64(value)) }

    static func double(_ value: Any?) -> Double {
        switch value {
        case let value as Int: return Double(value)
        case let value as Int64: return Double(value)
        case let value as Double: return value
        case let value as Float: return Double(value)
        case let value as Bool: return value ? 1 : 0
        default: return 0
        }
    }

    /// Fleece's `Value::asBool`: null and false are false; a number is true when its
    /// integer part (`asInt`, truncating toward zero) is not zero, so 0.5 and -0.9 are false;
    /// any other value (text, dates, arrays, dictionaries, blobs) is true.
    static func boolean(_ value: Any?) -> Bool {
        switch value {
        case nil: return false
        case is NSNull: return false
        case let value as Bool: return value
        case let value as Int: return value != 0
        case let value as Int64: return value != 0
        case let value as Double: return value.rounded(.towardZero) != 0
        case let value as Float: return value.rounded(.towardZero) != 0
        default: return true
        }
    }
}
