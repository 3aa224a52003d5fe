import Foundation

extension Database {
    /// Does one kind of maintenance work on the database.
    ///
    /// ``MaintenanceType/compact`` needs the file to itself: it closes every handle the way
    /// ``close(onClosed:)`` does (waiting for running operations, throwing instead of
    /// deadlocking when called from inside one), compacts on a connection of its own, and
    /// lets later operations reopen lazily.
    ///
    /// - Throws: notOpen for a closed object; `corruptData` when the integrity check fails;
    ///   SQLite errors from the work itself.
    public func performMaintenance(type: MaintenanceType) throws {
        try checkOpen()
        switch type {
        case .compact:
            // Opening first creates the file and its schema if this is the first operation.
            try core.open()
            let file = filePath
            let options = core.options
            try core.closeHandles {
                let connection = try Connection(path: file, role: .writer, options: options)
                defer { connection.close() }
                try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                try connection.execute("VACUUM")
                try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
        case .integrityCheck:
            let problems = try read { try $0.integrityProblems() }
            guard problems.isEmpty else {
                throw QuireError(.corruptData, "database '\(name)' failed its integrity check: \(problems.joined(separator: "; "))")
            }
        }
    }

    /// Runs `body` with a read-only connection to the SQLite file at `path`, inside one read
    /// transaction, without a core: nothing is created, migrated or written, so the file stays
    /// byte for byte as it was (SQLite may add `-shm` and `-wal` files beside it to read a
    /// WAL-mode file). For examining a file that must not change, such as an unpacked fixture.
    ///
    /// - Throws: notFound when there is no file at `path`; SQLite errors when it is not a
    ///   database.
    public static func withReadOnlyConnection<T>(path: String, _ body: (Connection) throws -> T) throws -> T {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw QuireError(.notFound, "no database file at \(path)")
        }
        let connection = try Connection(path: path, role: .reader, options: Connection.Options(readOnly: true))
        defer { connection.close() }
        return try connection.transaction { try body(connection) }
    }
}
