/// Writes a consistent copy of a SQLite file with `VACUUM INTO`.
///
/// The copy is taken inside one read transaction on a read-only connection, so writers on
/// the source (in this process or another) neither block it nor leave it half-written, and
/// committed WAL content is included without a checkpoint. The connection is one of Quire's
/// own, with its SQL functions and tokenizers registered: `VACUUM INTO` rebuilds every index,
/// and value indexes are expressions over `quire_extract`.
enum SnapshotCopy {
    static func copy(from source: String, to destination: String, busyTimeoutMilliseconds: Int32 = 10_000) throws {
        let connection = try Connection(
            path: source, role: .reader,
            options: Connection.Options(busyTimeoutMilliseconds: busyTimeoutMilliseconds, readOnly: true))
        defer { connection.close() }
        // The file is open read-only; `query_only` would also refuse writing the copy.
        try connection.run("PRAGMA query_only = OFF")
        try connection.run("VACUUM INTO ?", [.text(destination)])
    }
}
