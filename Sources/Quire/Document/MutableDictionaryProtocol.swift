import Foundation

/// Write access to a JSON object: setters return the object itself for chaining.
public protocol MutableDictionaryProtocol: DictionaryProtocol {
    /// Sets `value` at `key`. Accepted: strings, numbers, booleans, `Date` (stored as
    /// ISO-8601 text), `NSNull` or nil (JSON null), `[String: Any]`, `[Any]`, dictionaries,
    /// arrays and blobs. Another type is reported by `save`, naming its key.
    @discardableResult func setValue(_ value: Any?, forKey key: String) -> Self
    /// Removes `key`.
    @discardableResult func removeValue(forKey key: String) -> Self
    /// Replaces the whole content.
    @discardableResult func setData(_ data: [String: Any]) -> Self
    /// Replaces the whole content with a JSON object's.
    @discardableResult func setJSON(_ json: String) throws -> Self
}

extension MutableDictionaryProtocol {
    /// The array at `key`, mutable and live: a change to it is a change to this object (as
    /// Couchbase Lite's `MutableDocument` and `MutableDictionaryObject` return it); nil when
    /// missing or not an array.
    public func array(forKey key: String) -> MutableArrayObject? { value(forKey: key) as? MutableArrayObject }

    /// The dictionary at `key`, mutable and live; nil when missing or not a dictionary.
    public func dictionary(forKey key: String) -> MutableDictionaryObject? {
        value(forKey: key) as? MutableDictionaryObject
    }

    /// Sets `value` at `key` as a JSON string; nil stores JSON null.
    @discardableResult public func setString(_ value: String?, forKey key: String) -> Self {
        setValue(value, forKey: key)
    }
    /// Sets `value` at `key` as a JSON number; nil stores JSON null.
    @discardableResult public func setNumber(_ value: NSNumber?, forKey key: String) -> Self {
        setValue(value, forKey: key)
    }
    /// Sets `value` at `key` as a JSON integer, every digit kept.
    @discardableResult public func setInt(_ value: Int, forKey key: String) -> Self { setValue(value, forKey: key) }
    /// Sets a 64-bit integer.
    @discardableResult public func setInt64(_ value: Int64, forKey key: String) -> Self { setValue(value, forKey: key) }
    /// Sets `value` at `key` as a JSON number, widened to `Double`.
    @discardableResult public func setFloat(_ value: Float, forKey key: String) -> Self {
        setValue(Double(value), forKey: key)
    }
    /// Sets `value` at `key` as a JSON number; a non-finite value is refused by `save`.
    @discardableResult public func setDouble(_ value: Double, forKey key: String) -> Self {
        setValue(value, forKey: key)
    }
    /// Sets `value` at `key` as JSON `true` or `false`, never as 1 or 0.
    @discardableResult public func setBoolean(_ value: Bool, forKey key: String) -> Self {
        setValue(value, forKey: key)
    }
    /// Sets a date, stored as ISO-8601 UTC text with milliseconds.
    @discardableResult public func setDate(_ value: Date?, forKey key: String) -> Self { setValue(value, forKey: key) }
    /// Sets `value` at `key`; its content is stored when the document is saved.
    @discardableResult public func setBlob(_ value: Blob?, forKey key: String) -> Self { setValue(value, forKey: key) }
    /// Sets `value` at `key` as a JSON array; nil stores JSON null.
    @discardableResult public func setArray(_ value: ArrayObject?, forKey key: String) -> Self {
        setValue(value, forKey: key)
    }
    /// Sets `value` at `key` as a JSON object; nil stores JSON null.
    @discardableResult public func setDictionary(_ value: DictionaryObject?, forKey key: String) -> Self {
        setValue(value, forKey: key)
    }
}
