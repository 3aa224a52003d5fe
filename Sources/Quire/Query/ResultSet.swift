import Foundation

/// The rows a query returned, read in one consistent snapshot.
///
/// It is a sequence that is consumed as it is iterated, as Couchbase Lite's is: ``next()``
/// and iteration move forward, ``allResults()`` returns the rows not yet read.
public final class ResultSet: Sequence, IteratorProtocol, @unchecked Sendable {
    /// The keys of the result columns, in order.
    public let columnNames: [String]
    private let rows: [QueryResult]
    private let lock = NSLock()
    private var position = 0

    init(columnNames: [String], rows: [QueryResult]) {
        self.columnNames = columnNames
        self.rows = rows
    }

    /// The next row, or nil after the last.
    public func next() -> QueryResult? {
        lock.withLock {
            guard position < rows.count else { return nil }
            defer { position += 1 }
            return rows[position]
        }
    }

    /// The rows not read yet.
    public func allResults() -> [QueryResult] {
        lock.withLock {
            defer { position = rows.count }
            return Array(rows[position...])
        }
    }

    /// The number of rows in the whole set, read or not.
    public var count: Int { rows.count }

    /// All rows as a JSON array of objects (independent of what has been read).
    public func toJSON() -> String {
        (try? JSONValue.array(rows.map { $0.toJSONValue() }).jsonString()) ?? "[]"
    }

    /// Whether two result sets hold the same rows, for live queries to skip unchanged results.
    func hasSameRows(as other: ResultSet) -> Bool {
        columnNames == other.columnNames && rows.count == other.rows.count
            && zip(rows, other.rows).allSatisfy { $0.rawValues == $1.rawValues }
    }

    /// A fresh, unread copy, so each listener call can iterate from the start.
    func copy() -> ResultSet {
        ResultSet(columnNames: columnNames, rows: rows)
    }
}
