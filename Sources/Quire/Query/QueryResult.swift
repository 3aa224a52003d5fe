import Foundation

/// One row of a query's results: its columns by position (``ArrayProtocol``) and by key
/// (``DictionaryProtocol``).
///
/// Couchbase Lite calls this type `Result`; Quire names it `QueryResult` so that importing
/// Quire does not hide Swift's own `Result` type from the importing module.
///
/// A column whose value is MISSING has no value: `value(at:)` is nil, its key is absent from
/// ``keys`` and ``toDictionary()``. A NULL value is present, as `NSNull`.
public final class QueryResult: ArrayProtocol, DictionaryProtocol, Sendable, CustomStringConvertible {
    private let rows: ResultRows
    private let values: ArraySlice<JSONValue?>

    init(rows: ResultRows, row: Int) {
        self.rows = rows
        self.values = rows.row(row)
    }

    private var columnNames: [String] { rows.columnNames }
    private var blobStore: BlobStore? { rows.blobStore }

    /// The number of columns, MISSING ones included.
    public var count: Int { values.count }

    /// The keys of the columns that have a value (MISSING ones are left out), in column order.
    public var keys: [String] {
        zip(columnNames, values).compactMap { $0.1 == nil ? nil : $0.0 }
    }

    /// The value of column `index` (see ``DictionaryProtocol/value(forKey:)``), nil when MISSING
    /// or out of range.
    public func value(at index: Int) -> Any? {
        guard let value = jsonValue(at: index) else { return nil }
        return DictionaryObject.present(value, blobStore: blobStore)
    }

    /// The string of column `index`, nil when it holds something else, is MISSING or out of
    /// range (the same as `value(at:) as? String`, without the dynamic cast).
    public func string(at index: Int) -> String? {
        guard case .string(let text)? = jsonValue(at: index) else { return nil }
        return text
    }

    /// The string of the column with key `key`, nil when it holds something else, is MISSING
    /// or no column has that key.
    public func string(forKey key: String) -> String? {
        guard case .string(let text)? = jsonValue(forKey: key) else { return nil }
        return text
    }

    /// The value of the column with key `key`, nil when MISSING or when no column has that key.
    public func value(forKey key: String) -> Any? {
        guard let index = columnNames.firstIndex(of: key) else { return nil }
        return value(at: index)
    }

    /// The JSON value of column `index`, nil when MISSING.
    package func jsonValue(at index: Int) -> JSONValue? {
        guard index >= 0, index < values.count else { return nil }
        return values[values.startIndex + index]
    }

    /// The JSON value of the column with key `key`, nil when MISSING.
    package func jsonValue(forKey key: String) -> JSONValue? {
        columnNames.firstIndex(of: key).flatMap { jsonValue(at: $0) }
    }

    /// The columns as plain Swift values, MISSING ones as `NSNull` so positions are kept.
    public func toArray() -> [Any] {
        values.map { $0.map { DictionaryObject.plain($0, blobStore: blobStore) } ?? NSNull() }
    }

    /// The columns that have a value, by key, as plain Swift values.
    public func toDictionary() -> [String: Any] {
        var dictionary: [String: Any] = [:]
        for (name, value) in zip(columnNames, values) {
            if let value { dictionary[name] = DictionaryObject.plain(value, blobStore: blobStore) }
        }
        return dictionary
    }

    /// The columns that have a value, by key, as one JSON value.
    package func toJSONValue() -> JSONValue {
        var members: [String: JSONValue] = [:]
        for (name, value) in zip(columnNames, values) {
            if let value { members[name] = value }
        }
        return .object(members)
    }

    /// The row as a JSON object text, keys sorted, MISSING columns left out.
    public func toJSON() -> String {
        (try? toJSONValue().jsonString()) ?? "{}"
    }

    /// The row as JSON.
    public var description: String { toJSON() }
}
