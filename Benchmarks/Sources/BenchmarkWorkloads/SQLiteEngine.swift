import CSQLiteBaseline
import Foundation

/// The floor: SQLite's C API with prepared statements, an ordinary rowid table of ID and
/// JSON text with a unique index on the ID, text bound without copies (`SQLITE_STATIC`), and
/// nothing parsed.
public final class SQLiteEngine: StorageEngine {
    let path: String
    let writer: RawConnection

    /// Creates the table in a new file in `directory`.
    public init(directory: URL) throws {
        path = directory.appendingPathComponent("raw.sqlite3").path
        writer = try RawConnection(path: path, create: true)
        try writer.execute("CREATE TABLE IF NOT EXISTS docs (key TEXT NOT NULL UNIQUE, body TEXT NOT NULL)")
    }

    /// `BEGIN IMMEDIATE`, one prepared INSERT stepped per document, `COMMIT`.
    public func saveInOneTransaction(_ documents: [SampleDocument]) throws {
        let begin = try writer.prepare("BEGIN IMMEDIATE")
        let commit = try writer.prepare("COMMIT")
        let insert = try writer.prepare("INSERT INTO docs (key, body) VALUES (?, ?)")
        defer { [begin, commit, insert].forEach { sqlite3_finalize($0) } }
        try writer.stepToEnd(begin)
        for document in documents {
            try insertDocument(document, with: insert)
        }
        try writer.stepToEnd(commit)
    }

    /// One prepared INSERT per document in autocommit mode: each is its own transaction.
    public func saveEachInItsOwnTransaction(_ documents: [SampleDocument]) throws {
        let insert = try writer.prepare("INSERT INTO docs (key, body) VALUES (?, ?)")
        defer { sqlite3_finalize(insert) }
        for document in documents {
            try insertDocument(document, with: insert)
        }
    }

    private func insertDocument(_ document: SampleDocument, with insert: OpaquePointer) throws {
        var id = document.id
        var json = document.json
        try id.withUTF8 { key in
            try json.withUTF8 { body in
                bindStatic(insert, 1, key)
                bindStatic(insert, 2, body)
                try writer.stepToEnd(insert)
            }
        }
    }

    /// A connection of its own, as a C program would give each thread.
    public func makeReader(property: ReadProperty) throws -> any PropertyReader {
        try Reader(path: path)
    }

    public func bytesOnDisk() throws -> Int {
        try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return try fileSize(path)
    }

    /// Closes the writer.
    public func close() throws {
        writer.close()
    }

    private final class Reader: PropertyReader {
        let connection: RawConnection
        let select: OpaquePointer

        init(path: String) throws {
            connection = try RawConnection(path: path, create: false)
            select = try connection.prepare("SELECT body FROM docs WHERE key = ?")
        }

        deinit {
            sqlite3_finalize(select)
            connection.close()
        }

        /// Fetches the body's bytes and returns their count.
        func read(id: String) throws -> Int {
            var key = id
            return try key.withUTF8 { key in
                bindStatic(select, 1, key)
                defer { sqlite3_reset(select) }
                guard sqlite3_step(select) == SQLITE_ROW, let bytes = sqlite3_column_text(select, 0) else {
                    throw WorkloadFailure("document \(id) not found: \(connection.lastError)")
                }
                // Touch the bytes, as any use of them would.
                let count = Int(sqlite3_column_bytes(select, 0))
                return count + Int(bytes[0] & 1)
            }
        }
    }
}

/// Binds UTF-8 text without a copy (`SQLITE_STATIC`): the caller steps while `text` is alive.
@inline(__always)
func bindStatic(_ statement: OpaquePointer, _ index: Int32, _ text: UnsafeBufferPointer<UInt8>) {
    // An empty buffer may have no address; any non-null pointer with length 0 binds ''.
    let base = UnsafeRawPointer(text.baseAddress ?? UnsafePointer(bitPattern: 1)).map {
        $0.assumingMemoryBound(to: CChar.self)
    }
    sqlite3_bind_text(statement, index, base, Int32(text.count), nil)
}

/// A bare `sqlite3*` with the pragmas every engine uses.
final class RawConnection {
    let handle: OpaquePointer
    private var isClosed = false

    init(path: String, create: Bool) throws {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0)
        guard sqlite3_open_v2(path, &opened, flags, nil) == SQLITE_OK, let opened else {
            if let opened { sqlite3_close_v2(opened) }
            throw WorkloadFailure("cannot open \(path)")
        }
        handle = opened
        sqlite3_busy_timeout(handle, 10_000)
        try execute(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF; PRAGMA temp_store=FILE")
    }

    deinit { close() }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        sqlite3_close_v2(handle)
    }

    var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw WorkloadFailure("\(sql): \(lastError)")
        }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else {
            throw WorkloadFailure("\(sql): \(lastError)")
        }
        return statement
    }

    func stepToEnd(_ statement: OpaquePointer) throws {
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw WorkloadFailure("step failed: \(lastError)")
        }
    }
}
