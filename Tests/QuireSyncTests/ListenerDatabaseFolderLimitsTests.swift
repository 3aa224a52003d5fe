import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// What a folder of databases costs the server: long dotted paths are refused before they
/// are looked at, at most a bounded number of databases stay open, and a failed create
/// leaves nothing behind.
@Suite struct ListenerDatabaseFolderLimitsTests {
    /// Serves a fresh folder (made by `prepare`) on an ephemeral port and runs `body`.
    private func serving(
        maximumOpen: Int = 100, prepare: (URL) throws -> Void = { _ in },
        _ body: (ListenerDatabaseFolder, URLEndpointListener) async throws -> Void
    ) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("quire-folder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try prepare(root)
        let folder = try ListenerDatabaseFolder(
            directory: root.path, createsDatabases: true, allowsDelete: true, maximumOpenDatabases: maximumOpen)
        let listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(databaseFolder: folder, networkInterface: "127.0.0.1"))
        try await listener.start()
        do {
            try await body(folder, listener)
        } catch {
            await listener.stop()
            try folder.close()
            throw error
        }
        await listener.stop()
        try folder.close()
    }

    /// The number of descriptors this process has open.
    private func openDescriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    @Test func aLongDottedPathIsRefusedBeforeItIsParsed() async throws {
        try await serving(prepare: { root in
            try Database(name: "a", config: DatabaseConfiguration(directory: root.path)).close()
        }) { _, listener in
            let client = RawHTTPClient(port: listener.port ?? 0)
            // 78 KB of `a.a.a…`: once every dot was a database candidate (quadratic time and memory).
            let long = Array(repeating: "a", count: 39_000).joined(separator: ".")
            let reply = try await client.send("GET /\(long) HTTP/1.1")
            #expect(reply.status == 400)
            #expect(reply.json["error"] == "illegal_database_name")
            let documents = try await client.send("GET /\(long)/_all_docs HTTP/1.1")
            #expect(documents.status == 400)
            // Names up to the limit are still looked up: the collections of `a`.
            #expect(try await client.send("GET /a._default._default HTTP/1.1").status == 200)
            #expect(try await client.send("GET /a.nope HTTP/1.1").status == 404)
            let longest = String(repeating: "b", count: ListenerDatabaseFolder.maximumKeyspaceLength)
            #expect(try await client.send("GET /\(longest) HTTP/1.1").status == 404)
        }
    }

    @Test func candidatesAreTheWholeSegmentAndItsLastTwoDots() {
        let found = ListenerDatabaseFolder.candidates("my.db.inventory.hotel").map { [$0.0, $0.1, $0.2] }
        #expect(
            found == [
                ["my.db.inventory.hotel", "_default", "_default"], ["my.db.inventory", "_default", "hotel"],
                ["my.db", "inventory", "hotel"],
            ])
        #expect(ListenerDatabaseFolder.candidates("db").count == 1)
        #expect(ListenerDatabaseFolder.candidates("db.").count == 1)
    }

    @Test func atMostTheCapOfDatabasesStaysOpen() async throws {
        try await serving(maximumOpen: 4) { folder, listener in
            let client = RawHTTPClient(port: listener.port ?? 0)
            // Warm up the server's own descriptors (connections, threads) before counting.
            #expect(try await client.send("PUT /warm HTTP/1.1").status == 201)
            #expect(try await client.send("GET /warm HTTP/1.1").status == 200)
            let before = try openDescriptors()
            for index in 0..<40 {
                #expect(try await client.send("PUT /db\(index) HTTP/1.1").status == 201)
                #expect(
                    try await client.send(
                        "PUT /db\(index)/doc HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2",
                        body: Data("{}".utf8)
                    ).status == 201)
                #expect(folder.openCount <= 4)
            }
            // Reopened on demand after being let go.
            let first = try await client.send("GET /db0/doc HTTP/1.1")
            #expect(first.status == 200)
            #expect(folder.openCount <= 4)
            // 40 databases were opened; a handful of descriptors each would be 200 or more.
            #expect(try openDescriptors() - before < 40)
        }
    }

    @Test func aFailedCreateLeavesNoFolderAndCanBeRetried() async throws {
        try await serving { folder, listener in
            let client = RawHTTPClient(port: listener.port ?? 0)
            let real = folder.openDatabase
            // The database's folder is made, then opening fails (as when descriptors run out).
            let failing: @Sendable (String, DatabaseConfiguration) throws -> Database = { name, config in
                try real(name, config).close()
                throw QuireError(.cantOpenFile, "no descriptors left")
            }
            folder.openDatabase = failing
            let refused = try await client.send("PUT /fresh HTTP/1.1")
            #expect(refused.status >= 500)
            #expect(!FileManager.default.fileExists(atPath: folder.directory + "/fresh.quire"))
            folder.openDatabase = real
            let retried = try await client.send("PUT /fresh HTTP/1.1")
            #expect(retried.status == 201)
            let fresh = try await client.send("GET /fresh HTTP/1.1")
            #expect(fresh.status == 200)
        }
    }
}

extension ListenerDatabaseFolderLimitsTests {
    @Test func fullSyncOpensTheFolderDatabasesWithIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("quire-folder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try Database(name: "a", config: DatabaseConfiguration(directory: root.path)).close()
        let synced = try ListenerDatabaseFolder(directory: root.path, fullSync: true)
        #expect(try synced.resolve("a")?.collection.database.config.fullSync == true)
        try synced.close()
        let plain = try ListenerDatabaseFolder(directory: root.path)
        #expect(try plain.resolve("a")?.collection.database.config.fullSync == false)
        try plain.close()
    }
}
