import CSQLite
import Foundation
import Quire
import QuireFixtures

/// The baselines performance cases are measured against: what a careful engineer writes by
/// hand with the SQLite C API for the same job, with nothing of a document store around it.
///
/// One ordinary rowid table, `docs (key TEXT UNIQUE NOT NULL, body TEXT NOT NULL)`, bodies as
/// JSON text, prepared statements, and the pragmas of Quire's writer (WAL,
/// `synchronous=NORMAL`, `temp_store=FILE`). The documents are those the specs'
/// workloads save: document `i` is `{"n":<i>,"name":"name <i>","bucket":<i mod 50>,
/// "text":"word<i mod 50> shared","tags":["a","b"]}`, keyed `doc-<i>` when a workload saves it and `p-<i>` when a
/// preparation does. A random key sequence comes from the case's seed, as the workload's
/// `${random}` does. Each baseline's work is documented in Specs/README.md.
final class RawSQLiteBaseline {
    /// The baselines, by the name a spec gives.
    static let names = [
        "rawSQLiteInsert", "rawSQLiteInsertEach", "rawSQLiteRead", "rawSQLiteQuery", "rawSQLiteQueryIndexed",
        "rawSQLiteCreateIndex", "rawSQLiteFullText", "rawSQLiteInsertTravel", "rawSQLiteReadTravel",
        "rawSQLitePurgeExpired", "rawSQLiteExtractAndOpen", "rawSQLiteLiveQuery", "nothing",
    ]

    private let handle: OpaquePointer
    private let seed: UInt64
    private let path: String
    /// The case's directory, and the spec file's, against which ``fixtureArchive`` resolves.
    private let directory: URL
    private let specDirectory: URL
    /// Databases opened by `rawSQLiteExtractAndOpen`, closed with the baseline.
    private var extracted: [OpaquePointer] = []
    /// Read-only connections of their own for reads on several threads, opened untimed.
    private var readers: [OpaquePointer] = []

    /// Opens a new database file in `directory`.
    init(directory: URL, specDirectory: URL, seed: UInt64) throws {
        let path = directory.appendingPathComponent("baseline-\(UUID().uuidString).sqlite3").path
        var opened: OpaquePointer?
        let status = sqlite3_open_v2(
            path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let opened else {
            sqlite3_close_v2(opened)
            throw QuireError(.unexpectedError, "the baseline cannot open \(path): SQLite error \(status)")
        }
        handle = opened
        self.seed = seed
        self.path = path
        self.directory = directory
        self.specDirectory = specDirectory
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        try execute("PRAGMA temp_store=FILE")
        try execute("CREATE TABLE docs (key TEXT UNIQUE NOT NULL, body TEXT NOT NULL)")
    }

    deinit {
        for reader in readers + extracted { sqlite3_close_v2(reader) }
        sqlite3_close_v2(handle)
    }

    /// The body of document `index`.
    static func body(_ index: Int) -> String {
        #"{"n":\#(index),"name":"name \#(index)","bucket":\#(index % 50),"text":"word\#(index % 50) shared","tags":["a","b"]}"#
    }

    /// Untimed: what the workload's preparation stored, and what the baseline needs besides.
    /// With `threads` above 1, a read baseline also opens that many read-only connections.
    func prepare(_ name: String, prepareIterations: Int, threads: Int = 1) throws {
        defer {
            if threads > 1, name == "rawSQLiteRead" || name == "rawSQLiteReadTravel" {
                for _ in 0..<threads {
                    var reader: OpaquePointer?
                    if sqlite3_open_v2(path, &reader, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
                        let reader
                    {
                        readers.append(reader)
                    } else {
                        sqlite3_close_v2(reader)
                    }
                }
            }
        }
        switch name {
        case "rawSQLiteRead", "rawSQLiteQuery", "rawSQLiteCreateIndex", "rawSQLiteLiveQuery":
            try insert(prefix: "p-", count: prepareIterations, oneTransaction: true)
        case "rawSQLiteQueryIndexed":
            try insert(prefix: "p-", count: prepareIterations, oneTransaction: true)
            try execute(Self.createIndex)
        case "rawSQLiteFullText":
            try insert(prefix: "p-", count: prepareIterations, oneTransaction: true)
            try execute("CREATE VIRTUAL TABLE docs_text USING fts5(text)")
            try execute("INSERT INTO docs_text (rowid, text) SELECT rowid, json_extract(body, '$.text') FROM docs")
        case "rawSQLiteReadTravel":
            try insertTravel(prefix: "p-", count: prepareIterations)
        case "rawSQLitePurgeExpired":
            // An expiration column with a partial index, as one would add for expiring rows;
            // every prepared row expired at 1 ms after the epoch.
            try execute("ALTER TABLE docs ADD COLUMN expiration INTEGER")
            try execute("CREATE INDEX docs_expiration ON docs (expiration) WHERE expiration IS NOT NULL")
            try insert(prefix: "p-", count: prepareIterations, oneTransaction: true)
            try execute("UPDATE docs SET expiration = 1")
        default:
            return
        }
    }

    /// Timed: the baseline's work, `iterations` times.
    /// A read baseline with `threads` above 1 shares the reads among that many threads, each
    /// on its own connection, as the workload shares its iterations.
    func run(_ name: String, iterations: Int, prepareIterations: Int, threads: Int = 1) throws {
        if threads > 1, name == "rawSQLiteRead" || name == "rawSQLiteReadTravel" {
            return try readConcurrently(iterations: iterations, range: prepareIterations, threads: threads)
        }
        switch name {
        case "rawSQLiteInsert": try insert(prefix: "doc-", count: iterations, oneTransaction: true)
        case "rawSQLiteInsertEach": try insert(prefix: "doc-", count: iterations, oneTransaction: false)
        case "rawSQLiteRead": try read(iterations: iterations, range: prepareIterations)
        case "rawSQLiteQuery", "rawSQLiteQueryIndexed": try query(Self.bucketQuery, iterations: iterations)
        case "rawSQLiteFullText": try query(Self.fullTextQuery, iterations: iterations)
        case "rawSQLiteInsertTravel": try insertTravel(prefix: "doc-", count: iterations)
        case "rawSQLiteReadTravel": try read(iterations: iterations, range: prepareIterations)
        case "rawSQLitePurgeExpired": try purgeExpired(iterations: iterations, expected: prepareIterations)
        case "rawSQLiteExtractAndOpen": try extractAndOpen(iterations: iterations)
        case "rawSQLiteLiveQuery": try insertAndQuery(iterations: iterations)
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

    /// Travel-sized documents (``TravelDocuments``) in one transaction, each encoded to JSON
    /// text in the loop, as an app holding the documents as values encodes them to store them.
    private func insertTravel(prefix: String, count: Int) throws {
        let statement = try prepare("INSERT INTO docs (key, body) VALUES (?, ?)")
        defer { sqlite3_finalize(statement) }
        try execute("BEGIN")
        for index in 0..<count {
            let body = try TravelDocuments.hotel(index).jsonString(sortedKeys: false)
            sqlite3_reset(statement)
            sqlite3_bind_text(statement, 1, prefix + String(index), -1, quire_sqlite_transient())
            sqlite3_bind_text(statement, 2, body, -1, quire_sqlite_transient())
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("insert") }
        }
        try execute("COMMIT")
    }

    /// Deletes the expired rows in one transaction, `iterations` times (later iterations find
    /// none left, as a second purge does); the first must delete all `expected` rows.
    private func purgeExpired(iterations: Int, expected: Int) throws {
        let statement = try prepare("DELETE FROM docs WHERE expiration IS NOT NULL AND expiration <= ?")
        defer { sqlite3_finalize(statement) }
        for iteration in 0..<iterations {
            try execute("BEGIN")
            sqlite3_reset(statement)
            sqlite3_bind_int64(statement, 1, Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("purge") }
            let deleted = Int(sqlite3_changes(handle))
            try execute("COMMIT")
            guard iteration > 0 || deleted == expected else {
                throw failure("purge deleted \(deleted) of \(expected) rows")
            }
        }
    }

    /// The archive `rawSQLiteExtractAndOpen` extracts, relative to the spec file: the one the
    /// fixture case installs.
    static let fixtureArchive = "../../Fixtures/archives/travel-20.quire.zip"

    /// Extracts ``fixtureArchive`` `iterations` times, each into a folder of its own, with the
    /// same guarded libarchive reader an installer needs (no path escapes the folder), then
    /// opens its SQLite file and reads the schema, as an app shipping a prebuilt database
    /// would; the databases stay open, as the workload's do.
    private func extractAndOpen(iterations: Int) throws {
        let archive = specDirectory.appendingPathComponent(Self.fixtureArchive).standardizedFileURL
        for index in 0..<iterations {
            let folder = try SafeArchiveReader(archiveURL: archive)
                .extract(nextTo: directory.appendingPathComponent("extracted-\(index)", isDirectory: true))
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            guard let root = entries.first(where: { $0.hasSuffix(".quire") }) else {
                throw failure("find the database in \(archive.path)")
            }
            let file = folder.appendingPathComponent(root).appendingPathComponent("db.sqlite3").path
            var opened: OpaquePointer?
            guard sqlite3_open_v2(file, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
                let opened
            else {
                sqlite3_close_v2(opened)
                throw failure("open \(file)")
            }
            extracted.append(opened)
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(opened, "SELECT count(*) FROM sqlite_master", -1, &statement, nil) == SQLITE_OK,
                let statement
            else {
                throw failure("read the schema of \(file)")
            }
            defer { sqlite3_finalize(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW, sqlite3_column_int(statement, 0) > 0 else {
                throw failure("read the schema of \(file)")
            }
        }
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

    /// The reads of ``read(iterations:range:)`` (the same keys in the same order), each
    /// thread a contiguous share of them on its own read-only connection.
    private func readConcurrently(iterations: Int, range: Int, threads: Int) throws {
        guard readers.count == threads else { throw failure("open \(threads) readers") }
        var random = SeededRandom(seed: seed)
        let keys = (0..<iterations).map { _ in "p-\(Int(random.next() % UInt64(max(range, 1))))" }
        let errors = Locked<[String]>([])
        let group = DispatchGroup()
        for (thread, reader) in readers.enumerated() {
            let share = Array(keys[(iterations * thread / threads)..<(iterations * (thread + 1) / threads)])
            let connection = Connection(reader)
            group.enter()
            let worker = Thread {
                defer { group.leave() }
                var statement: OpaquePointer?
                guard
                    sqlite3_prepare_v2(
                        connection.handle, "SELECT json_extract(body, '$.name') FROM docs WHERE key = ?", -1,
                        &statement, nil) == SQLITE_OK, let statement
                else {
                    errors.withLock { $0.append("prepare the read") }
                    return
                }
                defer { sqlite3_finalize(statement) }
                var bytes = 0
                for key in share {
                    sqlite3_reset(statement)
                    sqlite3_bind_text(statement, 1, key, -1, quire_sqlite_transient())
                    guard sqlite3_step(statement) == SQLITE_ROW else {
                        errors.withLock { $0.append("read \(key)") }
                        return
                    }
                    if let text = sqlite3_column_text(statement, 0) { bytes += String(cString: text).utf8.count }
                }
                if bytes == 0 && !share.isEmpty { errors.withLock { $0.append("read nothing") } }
            }
            worker.start()
        }
        group.wait()
        if let first = errors.withLock({ $0.first }) {
            throw QuireError(.unexpectedError, "the baseline failed at \(first)")
        }
    }

    /// A connection handed to one reader thread, which alone uses it.
    private struct Connection: @unchecked Sendable {
        // Safe because the handle moves to one reader thread, which alone uses it (SQLite's
        // handles may change threads, just not be used by two at once).
        let handle: OpaquePointer
        init(_ handle: OpaquePointer) { self.handle = handle }
    }

    /// The body of the document the live query case saves at iteration `index`: one of
    /// bucket 50, which no prepared document has, so that each save adds a row to the query's
    /// results and the preparation adds none.
    static func liveBody(_ index: Int) -> String {
        #"{"n":\#(index),"name":"live \#(index)","bucket":50,"text":"word50 shared","tags":["a","b"]}"#
    }

    /// The documents of bucket 50: those the live query case saves.
    private static let liveQuery =
        "SELECT key, json_extract(body, '$.name') FROM docs WHERE json_extract(body, '$.bucket') = 50"

    /// What an app without live queries does after each save that the screen shows: inserts
    /// the row (a transaction of its own) and runs the screen's query again, reading every row;
    /// `iterations` times. Each run must find the row just inserted.
    private func insertAndQuery(iterations: Int) throws {
        let insert = try prepare("INSERT INTO docs (key, body) VALUES (?, ?)")
        defer { sqlite3_finalize(insert) }
        let query = try prepare(Self.liveQuery)
        defer { sqlite3_finalize(query) }
        var expected: Int?
        for index in 0..<iterations {
            sqlite3_reset(insert)
            sqlite3_bind_text(insert, 1, "doc-\(index)", -1, quire_sqlite_transient())
            sqlite3_bind_text(insert, 2, Self.liveBody(index), -1, quire_sqlite_transient())
            guard sqlite3_step(insert) == SQLITE_DONE else { throw failure("insert") }
            // A live query waits this long after a commit for the next ones before it runs
            // again (a burst of commits costs one run); a hand-written one would coalesce too.
            usleep(useconds_t(LiveQuery.coalescingMilliseconds * 1000))
            sqlite3_reset(query)
            var rows = 0
            while sqlite3_step(query) == SQLITE_ROW {
                if let key = sqlite3_column_text(query, 0), let name = sqlite3_column_text(query, 1) {
                    rows += String(cString: key).isEmpty || String(cString: name).isEmpty ? 0 : 1
                }
            }
            guard expected.map({ rows == $0 }) ?? (rows > 0) else { throw failure("the query missed the new row") }
            expected = rows + 1
        }
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
