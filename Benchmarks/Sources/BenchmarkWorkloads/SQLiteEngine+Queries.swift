import CSQLiteBaseline
import Foundation

/// The query workloads in hand-written SQL (``BaselineSQL``) on the writer connection:
/// one prepared statement per run, every row stepped and both text columns touched.
extension SQLiteEngine {
    public func query(_ subject: QuerySubject) throws -> Int {
        try run(BaselineSQL.query(subject), binding: subject.value)
    }

    public func createIndex(_ subject: QuerySubject) throws {
        try writer.execute(BaselineSQL.createIndex(subject))
    }

    public func dropIndex(_ subject: QuerySubject) throws {
        try writer.execute(BaselineSQL.dropIndex(subject))
    }

    public func createDescriptionIndex() throws {
        try writer.execute(BaselineSQL.createDescriptionIndex)
    }

    public func matchDescription(_ terms: String) throws -> Int {
        try run(BaselineSQL.matchDescription, binding: terms)
    }

    /// Steps `sql` with `text` bound to `?1`; returns the byte counts of columns 0 and 1,
    /// summed over the rows.
    private func run(_ sql: String, binding text: String) throws -> Int {
        let statement = try writer.prepare(sql)
        defer { sqlite3_finalize(statement) }
        var argument = text
        return try argument.withUTF8 { argument in
            bindStatic(statement, 1, argument)
            var total = 0
            while true {
                switch sqlite3_step(statement) {
                case SQLITE_ROW:
                    for column: Int32 in 0...1 {
                        // Touch the bytes, as any use of them would.
                        guard let bytes = sqlite3_column_text(statement, column) else { continue }
                        total &+= Int(sqlite3_column_bytes(statement, column)) &+ Int(bytes[0] & 1)
                    }
                case SQLITE_DONE:
                    return total
                default:
                    throw WorkloadFailure("query failed: \(writer.lastError)")
                }
            }
        }
    }
}
