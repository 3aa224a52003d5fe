import CSQLite
import Foundation
import Testing

@testable import Quire

@Suite struct ConnectionTests {
    @Test func bindsAndReadsEverySQLiteType() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("types.db"))
        let values: [SQLiteValue] = [
            .null, .integer(Int64.min), .integer(Int64.max), .real(-0.1), .real(1e300), .text(""),
            .text("é✓𝄞 \"quoted\""), .blob([]), .blob([0, 1, 2, 255]),
        ]
        try database.write { connection in
            try connection.execute("CREATE TABLE v (i INTEGER PRIMARY KEY, x)")
            for (index, value) in values.enumerated() {
                try connection.run("INSERT INTO v (i, x) VALUES (?, ?)", [.integer(Int64(index)), value])
            }
        }
        let read = try database.read { connection in
            try connection.query("SELECT x FROM v ORDER BY i") { $0.value(at: 0) }
        }
        #expect(read == values)
    }

    @Test func cachedStatementsAreReused() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("cache.db"))
        try database.write { connection in
            try connection.execute("CREATE TABLE c (x)")
            let before = connection.cachedStatementCount
            for n in 0..<10 { try connection.run("INSERT INTO c (x) VALUES (?)", [.integer(Int64(n))]) }
            #expect(connection.cachedStatementCount == before + 1)
        }
    }

    @Test func failuresCarrySQLiteCodesMessageAndStatement() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("errors.db"))
        let error = #expect(throws: QuireError.self) {
            try database.write { try $0.run("INSERT INTO nowhere VALUES (1)") }
        }
        #expect(error?.domain == .sqlite)
        #expect(error?.underlyingCode == 1)
        #expect(error?.message.contains("no such table: nowhere") == true)
        #expect(error?.statement == "INSERT INTO nowhere VALUES (1)")

        let constraint = #expect(throws: QuireError.self) {
            try database.write { connection in
                try connection.execute("CREATE TABLE u (x UNIQUE)")
                try connection.run("INSERT INTO u VALUES (1)")
                try connection.run("INSERT INTO u VALUES (1)")
            }
        }
        #expect(constraint?.underlyingCode == 19)
        #expect(constraint?.extendedCode == 2067)
    }

    /// A new file gets 8 KB pages; a file made with other pages keeps them.
    @Test func newFilesGetTheirPageSizeAndOldOnesKeepTheirs() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "pages", config: DatabaseConfiguration(directory: directory.path))
        #expect(try database.read { try $0.scalarInt("PRAGMA page_size") } == Int64(Connection.newFilePageSize))
        let path = directory.file("old.db")
        var handle: OpaquePointer?
        #expect(sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "PRAGMA page_size=4096; CREATE TABLE t (x)", nil, nil, nil) == SQLITE_OK)
        sqlite3_close_v2(handle)
        let old = Database(path: path)
        try old.write { try $0.run("INSERT INTO t (x) VALUES (1)") }
        #expect(try old.read { try $0.scalarInt("PRAGMA page_size") } == 4096)
    }

    /// Stored text is read as UTF-8 bytes, so a database in UTF-16 (which Quire never makes) is
    /// refused when it opens, by the writer and by a read-only connection, naming the file.
    @Test func aDatabaseInUTF16IsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("utf16.db")
        var handle: OpaquePointer?
        #expect(sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "PRAGMA encoding='UTF-16le'; CREATE TABLE t (x TEXT)", nil, nil, nil) == SQLITE_OK)
        sqlite3_close_v2(handle)
        let error = #expect(throws: QuireError.self) {
            try Database(path: path).write { try $0.run("INSERT INTO t (x) VALUES ('a')") }
        }
        #expect(error?.code == .wrongFormat)
        #expect(error?.message.contains("utf16.db") == true)
        #expect(error?.message.contains("UTF-16le") == true, "\(error?.message ?? "")")
        #expect(throws: QuireError.self) {
            try Database.withReadOnlyConnection(path: path) { try $0.scalarText("SELECT x FROM t") }
        }
    }

    @Test func pragmasFollowTheConfiguration() throws {
        let directory = TemporaryDirectory()
        let normal = Database(path: directory.file("normal.db"))
        #expect(try normal.write { try $0.scalarText("PRAGMA journal_mode") } == "wal")
        #expect(try normal.write { try $0.scalarInt("PRAGMA synchronous") } == 1)
        let full = try Database(name: "full", config: DatabaseConfiguration(directory: directory.path, fullSync: true))
        #expect(try full.write { try $0.scalarInt("PRAGMA synchronous") } == 2)
    }

    @Test func migrationsRunInOrderOnceAndRefuseNewerFiles() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("migrate.db"))
        #expect(try database.read { try $0.scalarInt("PRAGMA user_version") } == StoreSchema.migrator.latestVersion)
        let extra = SchemaMigrator(
            StoreSchema.migrator.migrations + [
                SchemaMigrator.Migration(version: 99, name: "extra") { try $0.execute("CREATE TABLE extra (x)") }
            ])
        let applied = try database.write { try extra.migrate($0) }
        #expect(applied == [99])
        #expect(try database.write { try extra.migrate($0) } == [])
        let refused = #expect(throws: QuireError.self) {
            try database.write { try StoreSchema.migrator.migrate($0) }
        }
        #expect(refused?.code == .databaseTooNew)
    }

    @Test func aReadOnlyConnectionReadsWithoutChangingTheFile() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "db", config: DatabaseConfiguration(directory: directory.path))
        try database.defaultCollection().save(document: MutableDocument(id: "a", data: ["n": 1]))
        try database.performMaintenance(type: .compact)
        let path = database.filePath
        try database.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        let problems = try Database.withReadOnlyConnection(path: path) { connection in
            #expect(try connection.scalarInt("SELECT count(*) FROM docs_1") == 1)
            #expect(throws: QuireError.self) { try connection.execute("DELETE FROM docs_1") }
            return try connection.integrityProblems()
        }
        #expect(problems.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)

        let missing = #expect(throws: QuireError.self) {
            try Database.withReadOnlyConnection(path: directory.file("none.sqlite3")) { _ in }
        }
        #expect(missing?.code == .notFound)
        #expect(!FileManager.default.fileExists(atPath: directory.file("none.sqlite3")))
    }
}
