import CSQLite

/// Writes a consistent copy of a SQLite file with `VACUUM INTO`.
///
/// The copy is taken inside one read transaction on a read-only connection, so writers on
/// the source (in this process or another) neither block it nor leave it half-written, and
/// committed WAL content is included without a checkpoint.
enum SnapshotCopy {
    static func copy(from source: String, to destination: String, busyTimeoutMilliseconds: Int32 = 10_000) throws {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(source, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        defer { sqlite3_close_v2(handle) }
        guard opened == SQLITE_OK, let handle else {
            throw QuireError.sqlite(opened, connection: handle, statement: nil)
        }
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        var statement: OpaquePointer?
        let sql = "VACUUM INTO ?"
        var result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard result == SQLITE_OK else { throw QuireError.sqlite(result, connection: handle, statement: sql) }
        result = destination.withCString { sqlite3_bind_text(statement, 1, $0, -1, quire_sqlite_transient()) }
        guard result == SQLITE_OK else { throw QuireError.sqlite(result, connection: handle, statement: sql) }
        result = sqlite3_step(statement)
        guard result == SQLITE_DONE else { throw QuireError.sqlite(result, connection: handle, statement: sql) }
    }
}
