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
    /// Appends a string.
    @discardableResult public func addString(_ value: String?) -> Self { addValue(value) }
    /// Appends an integer.
    @discardableResult public func addInt(_ value: Int) -> Self { addValue(value) }
    /// Appends a 64-bit integer.
    @discardableResult public func addInt64(_ value: Int64) -> Self { addValue(value) }
    /// Appends a double.
    @discardableResult public func addDouble(_ value: Double) -> Self { addValue(value) }
    /// Appends a boolean.
    @discardableResult public func addBoolean(_ value: Bool) -> Self { addValue(value) }
    /// Appends a date.
    @discardableResult public func addDate(_ value: Date?) -> Self { addValue(value) }
    /// Appends a dictionary.
    @discardableResult public func addDictionary(_ value: DictionaryObject?) -> Self { addValue(value) }
    /// Appends an array.
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
}
