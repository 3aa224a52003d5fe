import Foundation

/// The values of every row a query returned, in one flat array (row after row, column after
/// column), read in one go while the query's snapshot was open.
///
/// Rows are stored as plain values only: the ``QueryResult`` object of a row is made when the
/// row is read from its ``ResultSet``, so a query pays one array for all its rows rather than
/// an array and an object per row up front.
final class ResultRows: Sendable {
    /// The keys of the result columns, in order.
    let columnNames: [String]
    /// `count` × `columnNames.count` values; nil is MISSING.
    let values: [JSONValue?]
    /// The number of rows.
    let count: Int
    /// Where blobs in the values are read from.
    let blobStore: BlobStore?

    init(columnNames: [String], values: [JSONValue?], count: Int, blobStore: BlobStore?) {
        self.columnNames = columnNames
        self.values = values
        self.count = count
        self.blobStore = blobStore
    }

    /// The values of row `row`.
    func row(_ row: Int) -> ArraySlice<JSONValue?> {
        let width = columnNames.count
        return values[row * width..<(row + 1) * width]
    }

    /// Whether both hold the same columns and values.
    func hasSameValues(as other: ResultRows) -> Bool {
        columnNames == other.columnNames && count == other.count && values == other.values
    }
}
