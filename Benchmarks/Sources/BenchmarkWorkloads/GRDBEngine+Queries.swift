import Foundation
import GRDB

/// The query workloads in the same hand-written SQL as the C API (``BaselineSQL``), through
/// `DatabaseQueue`: a cached statement, a row cursor, and `String` columns read by position.
extension GRDBEngine {
    public func query(_ subject: QuerySubject) throws -> Int {
        try fetch(BaselineSQL.query(subject), binding: subject.value)
    }

    public func createIndex(_ subject: QuerySubject) throws {
        try queue.write { try $0.execute(sql: BaselineSQL.createIndex(subject)) }
    }

    public func dropIndex(_ subject: QuerySubject) throws {
        try queue.write { try $0.execute(sql: BaselineSQL.dropIndex(subject)) }
    }

    public func createDescriptionIndex() throws {
        try queue.write { try $0.execute(sql: BaselineSQL.createDescriptionIndex) }
    }

    public func matchDescription(_ terms: String) throws -> Int {
        try fetch(BaselineSQL.matchDescription, binding: terms)
    }

    /// Iterates the rows of `sql` with `text` as its argument; returns the UTF-8 lengths of
    /// columns 0 and 1, summed over the rows.
    private func fetch(_ sql: String, binding text: String) throws -> Int {
        try queue.read { db in
            let rows = try Row.fetchCursor(try db.cachedStatement(sql: sql), arguments: [text])
            var total = 0
            while let row = try rows.next() {
                let key: String = row[0]
                let value: String = row[1]
                total &+= key.utf8.count &+ value.utf8.count
            }
            return total
        }
    }
}
