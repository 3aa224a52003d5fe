import CSQLite

extension QuireError {
    /// Turns a SQLite result code into a ``QuireError`` that keeps SQLite's primary and
    /// extended codes, SQLite's message and the statement that failed.
    static func sqlite(_ result: Int32, connection: OpaquePointer?, statement: String? = nil) -> QuireError {
        let primary = result & 0xFF
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? result
        var message =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(result))
        if message == "not an error" || message.isEmpty {
            message = String(cString: sqlite3_errstr(result))
        }
        if message.hasPrefix("no such tokenizer: \(SnowballStemmers.tokenizerName)") {
            // A full-text index made by a build with Snowball, read by one without it.
            return QuireError(
                .unsupported,
                "a full-text index of this database stems with Snowball, and this build of Quire leaves out the package trait 'Snowball': build with the trait, or delete the index and create it again (SQLite: \(message))",
                domain: .sqlite, underlyingCode: primary, extendedCode: extended, statement: statement)
        }
        return QuireError(
            code(forSQLite: primary),
            message,
            domain: .sqlite,
            underlyingCode: primary,
            extendedCode: extended,
            statement: statement
        )
    }

    /// The Couchbase Lite code closest to a SQLite primary result code.
    static func code(forSQLite primary: Int32) -> Code {
        switch primary {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_CANTOPEN: return .cantOpenFile
        case SQLITE_NOTADB: return .unreadableDatabase
        case SQLITE_CORRUPT: return .corruptData
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH: return .notWriteable
        case SQLITE_IOERR, SQLITE_FULL: return .ioError
        case SQLITE_NOMEM: return .memoryError
        case SQLITE_CONSTRAINT: return .conflict
        case SQLITE_MISUSE, SQLITE_RANGE: return .assertionFailed
        case SQLITE_ERROR: return .unexpectedError
        default: return .unexpectedError
        }
    }
}
