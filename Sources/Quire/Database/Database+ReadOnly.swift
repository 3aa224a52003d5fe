import Foundation

extension Database {
    /// Runs `body` with a read-only connection to the SQLite file at `path`, inside one read
    /// transaction, without a core: nothing is created, migrated or written, so the file stays
    /// byte for byte as it was (SQLite may add `-shm` and `-wal` files beside it to read a
    /// WAL-mode file). For examining a file that must not change, such as an unpacked fixture.
    ///
    /// - Throws: notFound when there is no file at `path`; SQLite errors when it is not a
    ///   database.
    package static func withReadOnlyConnection<T>(path: String, _ body: (Connection) throws -> T) throws -> T {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw QuireError(.notFound, "no database file at \(path)")
        }
        let connection = try Connection(path: path, role: .reader, options: Connection.Options(readOnly: true))
        defer { connection.close() }
        return try connection.transaction { try body(connection) }
    }
}
