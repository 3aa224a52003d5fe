/// A value index: a SQLite index over expressions of each document, which queries that
/// filter or sort on the same expressions use.
///
/// ```swift
/// try collection.createIndex(withName: "byState", config: ValueIndexConfiguration(["contact.address.state"]))
/// ```
///
/// Each expression is SQL++ (a property path, or any deterministic expression over the
/// document). With `where`, the index is partial: it covers only documents for which the
/// condition holds, and a query uses it only when its WHERE clause includes the same
/// condition, written the same way.
public struct ValueIndexConfiguration: IndexConfiguration, Equatable {
    /// The indexed expressions, in SQL++.
    public let expressions: [String]
    /// The condition of a partial index, in SQL++.
    public let whereClause: String?

    /// A value index on `expressions` (property paths or SQL++ expressions), of the documents
    /// `whereClause` selects when given (a partial index).
    public init(_ expressions: [String], where whereClause: String? = nil) {
        self.expressions = expressions
        self.whereClause = whereClause
    }
}
