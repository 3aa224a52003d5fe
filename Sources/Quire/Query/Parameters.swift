import Foundation

/// Values for a query's named parameters (``Expression/parameter(_:)``, `$name` in SQL++).
///
/// A query keeps its own copy: changing a `Parameters` object after assigning it to
/// ``Query/parameters`` changes nothing until it is assigned again. A parameter that is not
/// set is MISSING.
public final class Parameters: Sendable {
    private let values: Locked<[String: JSONValue]>

    /// Parameters with no values set; a query whose parameter is unset reads it as MISSING.
    public init() {
        values = Locked([:])
    }

    /// A copy of `parameters` (empty when nil), to change without touching the original.
    public init(parameters: Parameters?) {
        values = Locked(parameters?.snapshot ?? [:])
    }

    init(values: [String: JSONValue]) {
        self.values = Locked(values)
    }

    var snapshot: [String: JSONValue] { values.withLock { $0 } }

    /// The value of `name` as a plain Swift value (`NSNull` for NULL), or nil when unset.
    public func value(forName name: String) -> Any? {
        values.withLock { $0[name] }.map(\.plainValue)
    }

    /// Sets `name` to a plain value: `nil`/`NSNull` (NULL), `Bool`, numbers, `String`, `Date`
    /// (ISO-8601 text), arrays and dictionaries, ``ArrayObject``, ``DictionaryObject``.
    /// A value with no JSON form is invalidParameter.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a value with no JSON form.
    public func setValue(_ value: Any?, forName name: String) throws {
        try set(Parameters.json(value), name)
    }

    /// Sets `name` to a string (nil is NULL).
    public func setString(_ value: String?, forName name: String) {
        set(value.map { .string($0) } ?? .null, name)
    }

    /// Sets `name` to a number (nil is NULL).
    public func setNumber(_ value: NSNumber?, forName name: String) {
        set(value.flatMap { JSONValue(any: $0) } ?? .null, name)
    }

    /// Sets `name` to an integer.
    public func setInt(_ value: Int, forName name: String) { set(.int(Int64(value)), name) }

    /// Sets `name` to a 64-bit integer.
    public func setInt64(_ value: Int64, forName name: String) { set(.int(value), name) }

    /// Sets `name` to a float.
    public func setFloat(_ value: Float, forName name: String) { set(JSONValue(any: value) ?? .null, name) }

    /// Sets `name` to a double (a non-finite one is NULL).
    public func setDouble(_ value: Double, forName name: String) { set(value.isFinite ? .double(value) : .null, name) }

    /// Sets `name` to a boolean.
    public func setBoolean(_ value: Bool, forName name: String) { set(.bool(value), name) }

    /// Sets `name` to a date, as ISO-8601 text (nil is NULL).
    public func setDate(_ value: Date?, forName name: String) {
        set(value.map { .string(ISO8601.string(from: $0)) } ?? .null, name)
    }

    /// Sets `name` to an array (nil is NULL).
    public func setArray(_ value: ArrayObject?, forName name: String) {
        set(value.map { .array($0.jsonArray) } ?? .null, name)
    }

    /// Sets `name` to a dictionary (nil is NULL).
    public func setDictionary(_ value: DictionaryObject?, forName name: String) {
        set(value.map { .object($0.jsonObject) } ?? .null, name)
    }

    /// Sets `name` to a JSON value.
    package func setJSONValue(_ value: JSONValue, forName name: String) { set(value, name) }

    /// Unsets `name`, making it MISSING again.
    public func removeValue(forName name: String) {
        values.withLock { _ = $0.removeValue(forKey: name) }
    }

    private func set(_ value: JSONValue, _ name: String) {
        values.withLock { $0[name] = value }
    }

    static func json(_ value: Any?) throws -> JSONValue {
        guard let json = QueryValue.json(value) else {
            throw QuireError(
                .invalidParameter,
                "a query parameter cannot hold a value of type \(value.map { "\(type(of: $0))" } ?? "nil")")
        }
        return json
    }
}
