import Foundation

/// The rows a query returned, read in one consistent snapshot.
///
/// It is a sequence that is consumed as it is iterated, as Couchbase Lite's is: ``next()``
/// and iteration move forward, ``allResults()`` returns the rows not yet read.
public final class ResultSet: Sequence, IteratorProtocol, @unchecked Sendable {
    // Safe because `rows` never changes once read and the read position is behind its lock.
    /// The keys of the result columns, in order.
    public let columnNames: [String]
    private let rows: ResultRows
    private let position = Locked(0)

    init(rows: ResultRows) {
        self.columnNames = rows.columnNames
        self.rows = rows
    }

    /// The next row, or nil after the last.
    public func next() -> QueryResult? {
        let row: Int? = position.withLock { position in
            guard position < rows.count else { return nil }
            defer { position += 1 }
            return position
        }
        return row.map { QueryResult(rows: rows, row: $0) }
    }

    /// The rows not read yet.
    public func allResults() -> [QueryResult] {
        let unread = position.withLock { position in
            defer { position = rows.count }
            return position..<rows.count
        }
        return unread.map { QueryResult(rows: rows, row: $0) }
    }

    /// The number of rows in the whole set, read or not.
    public var count: Int { rows.count }

    /// All rows as a JSON array of objects (independent of what has been read).
    public func toJSON() -> String {
        let objects = (0..<rows.count).map { QueryResult(rows: rows, row: $0).toJSONValue() }
        return (try? JSONValue.array(objects).jsonString()) ?? "[]"
    }

    /// Whether two result sets hold the same rows, for live queries to skip unchanged results.
    func hasSameRows(as other: ResultSet) -> Bool {
        rows.hasSameValues(as: other.rows)
    }

    /// A fresh, unread copy, so each listener call can iterate from the start.
    func copy() -> ResultSet {
        ResultSet(rows: rows)
    }
}
