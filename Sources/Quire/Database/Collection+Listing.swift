import Foundation

/// A live document as a listing by ID gives it: its ID and current revision.
package struct DocumentListing: Sendable, Equatable {
    /// The document ID.
    package let id: String
    /// The current revision ID.
    package let revisionID: String
}

extension Collection {
    /// The number of deleted documents (tombstones) kept; 0 for a deleted collection or a
    /// closed database. Counted on the index of deleted documents alone.
    package var deletedCount: UInt64 {
        (try? reading { connection in try connection.scalarInt(StoreSchema.deletedCountSQL(table)) })
            .flatMap { $0 }.map { UInt64(clamping: $0) } ?? 0
    }

    /// Live documents in the order of their IDs' UTF-8 bytes (CouchDB's `_all_docs` raw
    /// collation), read through the table's key order, so the cost follows `skip + limit`
    /// rather than the number of documents.
    ///
    /// - Parameters:
    ///   - start: the first ID (included); in descending order, the highest.
    ///   - end: the last ID; in descending order, the lowest.
    ///   - inclusiveEnd: whether `end` itself is listed.
    ///   - descending: highest ID first.
    ///   - skip: documents passed over first.
    ///   - limit: at most this many; nil for all.
    package func liveDocuments(
        from start: String? = nil, to end: String? = nil, inclusiveEnd: Bool = true, descending: Bool = false,
        skip: Int = 0, limit: Int? = nil
    ) throws -> [DocumentListing] {
        var conditions = ["flags & 1 = 0"]
        var arguments: [SQLiteValue] = []
        // SQLite compares TEXT with memcmp: the order of UTF-8 bytes.
        if let start {
            conditions.append(descending ? "key <= ?" : "key >= ?")
            arguments.append(.text(start))
        }
        if let end {
            conditions.append(
                descending ? (inclusiveEnd ? "key >= ?" : "key > ?") : (inclusiveEnd ? "key <= ?" : "key < ?"))
            arguments.append(.text(end))
        }
        arguments.append(.integer(limit.map { Int64(clamping: max(0, $0)) } ?? -1))
        arguments.append(.integer(Int64(clamping: max(0, skip))))
        let sql = """
            SELECT key, revid FROM \(table) WHERE \(conditions.joined(separator: " AND "))
            ORDER BY key \(descending ? "DESC" : "ASC") LIMIT ? OFFSET ?
            """
        return try reading { connection in
            try connection.query(sql, arguments) {
                DocumentListing(id: $0.text(at: 0) ?? "", revisionID: try $0.revisionID(at: 1))
            }
        }
    }

    /// Documents whose latest change is before sequence `before` (every document when nil),
    /// newest change first, at most `limit` of them: CouchDB's `_changes?descending=true`.
    package func changesDescending(before: UInt64? = nil, limit: Int? = nil) throws -> [ChangeEntry] {
        try changeEntries(
            "sequence < ? ORDER BY sequence DESC",
            [.integer(before.map { Int64(clamping: $0) } ?? Int64.max), .integer(Int64(limit ?? -1))])
    }
}
