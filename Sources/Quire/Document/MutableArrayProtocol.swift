import Foundation

/// Write access to a JSON array.
public protocol MutableArrayProtocol: ArrayProtocol {
    /// Replaces the element at `index` (ignored when out of range).
    @discardableResult func setValue(_ value: Any?, at index: Int) -> Self
    /// Appends an element.
    @discardableResult func addValue(_ value: Any?) -> Self
    /// Inserts an element at `index` (0...count).
    @discardableResult func insertValue(_ value: Any?, at index: Int) -> Self
    /// Removes the element at `index` (ignored when out of range).
    @discardableResult func removeValue(at index: Int) -> Self
}

extension MutableArrayProtocol {
    /// The array at `index`, mutable and live: a change to it is a change to this array (as
    /// Couchbase Lite's `MutableArrayObject` returns it); nil when out of range or not an array.
    public func array(at index: Int) -> MutableArrayObject? { value(at: index) as? MutableArrayObject }

    /// The dictionary at `index`, mutable and live; nil when out of range or not a dictionary.
    public func dictionary(at index: Int) -> MutableDictionaryObject? { value(at: index) as? MutableDictionaryObject }

    /// Appends `value` as a JSON string; nil appends JSON null.
    @discardableResult public func addString(_ value: String?) -> Self { addValue(value) }
    /// Appends `value` as a JSON integer, every digit kept.
    @discardableResult public func addInt(_ value: Int) -> Self { addValue(value) }
    /// Appends a 64-bit integer.
    @discardableResult public func addInt64(_ value: Int64) -> Self { addValue(value) }
    /// Appends `value` as a JSON number; a non-finite value is refused by `save`.
    @discardableResult public func addDouble(_ value: Double) -> Self { addValue(value) }
    /// Appends `value` as JSON `true` or `false`, never as 1 or 0.
    @discardableResult public func addBoolean(_ value: Bool) -> Self { addValue(value) }
    /// Appends `value` as ISO-8601 UTC text with milliseconds; nil appends JSON null.
    @discardableResult public func addDate(_ value: Date?) -> Self { addValue(value) }
    /// Appends `value` as a JSON object; nil appends JSON null.
    @discardableResult public func addDictionary(_ value: DictionaryObject?) -> Self { addValue(value) }
    /// Appends `value` as a JSON array; nil appends JSON null.
    @discardableResult public func addArray(_ value: ArrayObject?) -> Self { addValue(value) }
    /// Sets a string at `index`.
    @discardableResult public func setString(_ value: String?, at index: Int) -> Self { setValue(value, at: index) }
    /// Sets an integer at `index`.
    @discardableResult public func setInt(_ value: Int, at index: Int) -> Self { setValue(value, at: index) }
    /// Sets a 64-bit integer at `index`.
    @discardableResult public func setInt64(_ value: Int64, at index: Int) -> Self { setValue(value, at: index) }
    /// Sets a double at `index`.
    @discardableResult public func setDouble(_ value: Double, at index: Int) -> Self { setValue(value, at: index) }
    /// Sets a boolean at `index`.
    @discardableResult public func setBoolean(_ value: Bool, at index: Int) -> Self { setValue(value, at: index) }
    /// Sets a date at `index`.
    @discardableResult public func setDate(_ value: Date?, at index: Int) -> Self { setValue(value, at: index) }
    /// Appends `value` as a JSON number; nil appends JSON null.
    @discardableResult public func addNumber(_ value: NSNumber?) -> Self { addValue(value) }
    /// Appends `value` as a JSON number, widened to `Double`.
    @discardableResult public func addFloat(_ value: Float) -> Self { addValue(Double(value)) }
    /// Appends `value`; its content is stored when the document is saved.
    @discardableResult public func addBlob(_ value: Blob?) -> Self { addValue(value) }
    /// Sets a number at `index`.
    @discardableResult public func setNumber(_ value: NSNumber?, at index: Int) -> Self { setValue(value, at: index) }
    /// Sets a float at `index`.
    @discardableResult public func setFloat(_ value: Float, at index: Int) -> Self {
        setValue(Double(value), at: index)
    }
    /// Sets a blob at `index`.
    @discardableResult public func setBlob(_ value: Blob?, at index: Int) -> Self { setValue(value, at: index) }
    /// Sets an array at `index`.
    @discardableResult public func setArray(_ value: ArrayObject?, at index: Int) -> Self { setValue(value, at: index) }
    /// Sets a dictionary at `index`.
    @discardableResult public func setDictionary(_ value: DictionaryObject?, at index: Int) -> Self {
        setValue(value, at: index)
    }
    /// Inserts a string at `index` (0...count).
    @discardableResult public func insertString(_ value: String?, at index: Int) -> Self {
        insertValue(value, at: index)
    }
    /// Inserts an integer at `index` (0...count).
    @discardableResult public func insertInt(_ value: Int, at index: Int) -> Self { insertValue(value, at: index) }
    /// Inserts a 64-bit integer at `index` (0...count).
    @discardableResult public func insertInt64(_ value: Int64, at index: Int) -> Self {
        insertValue(value, at: index)
    }
    /// Inserts a number at `index` (0...count); nil inserts a null.
    @discardableResult public func insertNumber(_ value: NSNumber?, at index: Int) -> Self {
        insertValue(value, at: index)
    }
    /// Inserts a double at `index` (0...count).
    @discardableResult public func insertDouble(_ value: Double, at index: Int) -> Self {
        insertValue(value, at: index)
    }
    /// Inserts a float at `index` (0...count), stored as the double of the same value.
    @discardableResult public func insertFloat(_ value: Float, at index: Int) -> Self {
        insertValue(Double(value), at: index)
    }
    /// Inserts a boolean at `index` (0...count).
    @discardableResult public func insertBoolean(_ value: Bool, at index: Int) -> Self {
        insertValue(value, at: index)
    }
    /// Inserts a date, as ISO-8601 text, at `index` (0...count); nil inserts a null.
    @discardableResult public func insertDate(_ value: Date?, at index: Int) -> Self {
        insertValue(value, at: index)
    }
    /// Inserts a blob at `index` (0...count); nil inserts a null.
    @discardableResult public func insertBlob(_ value: Blob?, at index: Int) -> Self {
        insertValue(value, at: index)
    }
    /// Inserts an array at `index` (0...count); nil inserts a null.
    @discardableResult public func insertArray(_ value: ArrayObject?, at index: Int) -> Self {
        insertValue(value, at: index)
    }
    /// Inserts a dictionary at `index` (0...count); nil inserts a null.
    @discardableResult public func insertDictionary(_ value: DictionaryObject?, at index: Int) -> Self {
        insertValue(value, at: index)
    }
}
