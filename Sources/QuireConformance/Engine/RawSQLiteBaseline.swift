import CSQLite
import Foundation
import Quire

/// The baselines performance cases are measured against: what a careful engineer writes by
/// hand with the SQLite C API for the same job, with nothing of a document store around it.
///
/// One ordinary rowid table, `docs (key TEXT UNIQUE NOT NULL, body TEXT NOT NULL)`, bodies as
/// JSON text, prepared statements, and the pragmas of Quire's writer (WAL,
/// `synchronous=NORMAL`, `temp_store=MEMORY`). The documents are those the specs'
/// workloads save: document `i` is `{"n":<i>,"name":"name <i>","bucket":<i mod 50>,
/// "text":"word<i mod 50> shared","tags":["a","b"]}`, keyed `doc-<i>` when a workload saves it and `p-<i>` when a
/// preparation does. A random key sequence comes from the case's seed, as the workload's
/// `${random}` does. Each baseline's work is documented in Specs/README.md.
final class RawSQLiteBaseline {
    /// The baselines, by the name a spec gives.
    static let names = [
        "rawSQLiteInsert", "rawSQLiteInsertEach", "rawSQLiteRead", "rawSQLiteQuery", "rawSQLiteQueryIndexed",
        "rawSQLiteCreateIndex", "rawSQLiteFullText", "nothing",
    ]

    private let handle: OpaquePointer
    private let seed: UInt64

    /// Opens a new database file in `directory`.
    init(directory: URL, seed: UInt64) throws {
        let path = directory.appendingPathComponent("baseline-\(UUID().uuidString).sqlite3").path
        var opened: OpaquePointer?
        let status = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let opened else {
            sqlite3_close_v2(opened)
            throw QuireError(.unexpectedError, "the baseline cannot open \(path): SQLite error \(status)")
        }
        handle = opened
        self.seed = seed
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        try execute("PRAGMA temp_store=MEMORY")
        try execute("CREATE TABLE docs (key TEXT UNIQUE NOT NULL, body TEXT NOT NULL)")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// The body of document `index`.
    static func body(_ index: Int) -> String {
        #"{"n":\#(index),"name":"name \#(index)","bucket":\#(index % 50),"text":"word\#(index % 50) shared","tags":["a","b"]}"#
    }

    /// Untimed: what the workload's preparation stored, and what the baseline needs besides.
    func prepare(_ name: String, prepareIterations: Int) throws {
        switch name {
        case "rawSQLiteRead", "rawSQLiteQuery", "rawSQLiteCreateIndex":
            try insert(prefix: "p-", count: prepareIterations, oneTransaction: true)
        case "rawSQLiteQueryIndexed":
            try insert(prefix: "p-", count: prepareIterations, oneTransaction: true)
            try execute(Self.createIndex)
        case "rawSQLiteFullText":
            try insert(prefix: "p-", count: prepareIterations, oneTransaction: true)
            try execute("CREATE VIRTUAL TABLE docs_text USING fts5(text)")
            try execute("INSERT INTO docs_text (rowid, text) SELECT rowid, json_extract(body, '$.text') FROM docs")
        default:
            return
        }
    }

    /// Timed: the baseline's work, `iterations` times.
    func run(_ name: String, iterations: Int, prepareIterations: Int) throws {
        switch name {
        case "rawSQLiteInsert": try insert(prefix: "doc-", count: iterations, oneTransaction: true)
        case "rawSQLiteInsertEach": try insert(prefix: "doc-", count: iterations, oneTransaction: false)
        case "rawSQLiteRead": try read(iterations: iterations, range: prepareIterations)
        case "rawSQLiteQuery", "rawSQLiteQueryIndexed": try query(Self.bucketQuery, iterations: iterations)
        case "rawSQLiteFullText": try query(Self.fullTextQuery, iterations: iterations)
        case "rawSQLiteCreateIndex":
            // Later iterations find the index there, as a workload's repeated createIndex does.
            for _ in 0..<iterations { try execute(Self.createIndex) }
        case "nothing": return
        default:
            throw EngineError.unsupported("the baseline '\(name)' (known: \(Self.names.joined(separator: ", ")))")
        }
    }

    private static let createIndex = "CREATE INDEX IF NOT EXISTS docs_bucket ON docs (json_extract(body, '$.bucket'))"

    private func insert(prefix: String, count: Int, oneTransaction: Bool) throws {
        let statement = try prepare("INSERT INTO docs (key, body) VALUES (?, ?)")
        defer { sqlite3_finalize(statement) }
        if oneTransaction { try execute("BEGIN") }
        for index in 0..<count {
            sqlite3_reset(statement)
            sqlite3_bind_text(statement, 1, prefix + String(index), -1, quire_sqlite_transient())
            sqlite3_bind_text(statement, 2, Self.body(index), -1, quire_sqlite_transient())
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("insert") }
        }
        if oneTransaction { try execute("COMMIT") }
    }

    /// Random point reads of one property, as `getValue` reads `name`.
    private func read(iterations: Int, range: Int) throws {
        let statement = try prepare("SELECT json_extract(body, '$.name') FROM docs WHERE key = ?")
        defer { sqlite3_finalize(statement) }
        var random = SeededRandom(seed: seed)
        var bytes = 0
        for _ in 0..<iterations {
            let key = "p-\(Int(random.next() % UInt64(max(range, 1))))"
            sqlite3_reset(statement)
            sqlite3_bind_text(statement, 1, key, -1, quire_sqlite_transient())
            guard sqlite3_step(statement) == SQLITE_ROW else { throw failure("read \(key)") }
            if let text = sqlite3_column_text(statement, 0) { bytes += String(cString: text).utf8.count }
        }
        guard bytes > 0 else { throw failure("read nothing") }
    }

    /// The documents of bucket 7 (2%).
    private static let bucketQuery =
        "SELECT key, json_extract(body, '$.name') FROM docs WHERE json_extract(body, '$.bucket') = 7"
    /// The documents whose text has the word of bucket 7 (2%).
    private static let fullTextQuery =
        "SELECT docs.key, json_extract(docs.body, '$.name') FROM docs_text JOIN docs ON docs.rowid = docs_text.rowid WHERE docs_text MATCH 'word7'"

    /// Runs `sql` `iterations` times, reading the key and the name of every row.
    private func query(_ sql: String, iterations: Int) throws {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        for _ in 0..<iterations {
            sqlite3_reset(statement)
            var rows = 0
            while sqlite3_step(statement) == SQLITE_ROW {
                if let key = sqlite3_column_text(statement, 0), let name = sqlite3_column_text(statement, 1) {
                    rows += String(cString: key).isEmpty || String(cString: name).isEmpty ? 0 : 1
                }
            }
            guard rows > 0 else { throw failure("the query found nothing") }
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure("prepare \(sql)")
        }
        return statement
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    private func failure(_ what: String) -> QuireError {
        QuireError(.unexpectedError, "the baseline failed at \(what): \(String(cString: sqlite3_errmsg(handle)))")
    }
}
