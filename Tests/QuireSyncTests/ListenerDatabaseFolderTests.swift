import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// A listener serving a folder of databases the way CouchDB serves its own: `_all_dbs`,
/// database info, creating and deleting databases when allowed, and names that cannot leave
/// the folder.
@Suite struct ListenerDatabaseFolderTests {
    /// A folder `data` holding `alpha` (one document) and `beta` (one hotel in
    /// `inventory.hotel`), a hidden scratch folder and a stray file; and `outside.quire`
    /// beside the folder.
    private func makeFolder() throws -> (root: URL, data: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("quire-folder-\(UUID().uuidString)")
        let data = root.appendingPathComponent("data")
        let config = DatabaseConfiguration(directory: data.path)
        let alpha = try Database(name: "alpha", config: config)
        try alpha.defaultCollection().save(document: MutableDocument(id: "a1", data: ["n": 1]))
        try alpha.close()
        let beta = try Database(name: "beta", config: config)
        try beta.createCollection(name: "hotel", scope: "inventory").save(
            document: MutableDocument(id: "h1", data: ["n": 2]))
        try beta.close()
        try Database(name: "outside", config: DatabaseConfiguration(directory: root.path)).close()
        try FileManager.default.createDirectory(
            at: data.appendingPathComponent(".quire-install.extract-1234.quire"), withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: data.appendingPathComponent("notes.txt"))
        return (root, data)
    }

    /// Serves `data` on an ephemeral port, runs `body` with a client, then stops and closes.
    private func serving(
        _ data: URL, creates: Bool = true, deletes: Bool = true, readOnly: Bool = false,
        _ body: (TestHTTPClient) async throws -> Void
    ) async throws {
        let folder = try ListenerDatabaseFolder(directory: data.path, createsDatabases: creates, allowsDelete: deletes)
        let listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(
                databaseFolder: folder, networkInterface: "127.0.0.1", readOnly: readOnly))
        try await listener.start()
        let port = try #require(listener.port)
        #expect(listener.serverURLs == [URL(string: "http://127.0.0.1:\(port)/")!])
        do {
            try await body(TestHTTPClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!))
        } catch {
            await listener.stop()
            try folder.close()
            throw error
        }
        await listener.stop()
        try folder.close()
    }

    @Test func servesListsCreatesAndDeletesDatabases() async throws {
        let (root, data) = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try await serving(data) { client in
            #expect(try await client.get("/_all_dbs").json == ["alpha", "beta"])
            let alpha = try await client.get("/alpha")
            #expect(alpha.status == 200)
            #expect(alpha.json["db_name"] == "alpha")
            #expect(alpha.json["doc_count"] == 1)
            #expect(try await client.get("/alpha/a1").json["n"] == 1)
            #expect(try await client.get("/beta.inventory.hotel").json["doc_count"] == 1)
            #expect(try await client.get("/beta.inventory.hotel/h1").json["n"] == 2)
            let missing = try await client.get("/gamma")
            #expect(missing.status == 404)
            #expect(missing.json["error"] == "not_found")

            // Create, write, read back; a second PUT is 412 as in CouchDB.
            let created = try await client.send("PUT", "/gamma")
            #expect(created.status == 201)
            #expect(created.json["ok"] == true)
            #expect(Database.exists(withName: "gamma", inDirectory: data.path))
            #expect(try await client.put("/gamma/g1", ["n": 3]).status == 201)
            #expect(try await client.get("/gamma").json["doc_count"] == 1)
            #expect(try await client.get("/_all_dbs").json == ["alpha", "beta", "gamma"])
            let again = try await client.send("PUT", "/gamma")
            #expect(again.status == 412)
            #expect(again.json["error"] == "file_exists")

            // A database another process made in the folder is found when named.
            try Database(name: "delta", config: DatabaseConfiguration(directory: data.path)).close()
            #expect(try await client.get("/delta").status == 200)

            // Delete: the files go, and the name is free again.
            let deleted = try await client.send("DELETE", "/gamma")
            #expect(deleted.status == 200)
            #expect(deleted.json["ok"] == true)
            #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("gamma.quire").path))
            #expect(try await client.get("/gamma").status == 404)
            #expect(try await client.get("/gamma/g1").status == 404)
            #expect(try await client.send("DELETE", "/gamma").status == 404)
            #expect(try await client.get("/_all_dbs").json == ["alpha", "beta", "delta"])
            #expect(try await client.send("PUT", "/gamma").status == 201)
            #expect(try await client.get("/gamma").json["doc_count"] == 0)
        }
    }

    @Test func concurrentCreatesOfOneNameMakeOneDatabase() async throws {
        let (root, data) = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try await serving(data) { client in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { try await client.send("PUT", "/race").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [201] + Array(repeating: 412, count: 7))
            #expect(try await client.put("/race/doc", ["n": 1]).status == 201)
            #expect(try await client.get("/race").json["doc_count"] == 1)
        }
    }

    /// Quire's replicator addresses collection `scope.collection` of `/db` as
    /// `/db.scope.collection` (`NormalizedURL.keyspace`); `PUT` on such a keyspace creates the
    /// collection, and its database when missing, so a database with named collections can
    /// be pushed to a folder.
    @Test func aDatabaseWithNamedCollectionsPushesToAFolder() async throws {
        let (root, data) = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let local = try SyncTestDatabase()
        let products = try local.database.createCollection(name: "products", scope: "store")
        let notes = try local.database.createCollection(name: "notes")
        try local.save("home", #"{"n":0}"#)
        try local.save("p1", #"{"price":3}"#, in: products)
        try local.save("n1", #"{"text":"hi"}"#, in: notes)
        try await serving(data) { client in
            for keyspace in ["shop.store.products", "shop", "shop.notes"] {
                let created = try await client.send("PUT", "/\(keyspace)")
                #expect(created.status == (keyspace == "shop" ? 412 : 201), "\(keyspace): \(created.text)")
            }
            #expect(try await client.send("PUT", "/shop.store.products").status == 412)
            #expect(try await client.send("PUT", "/shop._default._default").status == 412)
            #expect(try await client.get("/_all_dbs").json == ["alpha", "beta", "shop"])

            var config = ReplicatorConfiguration(
                target: URLEndpoint(url: client.baseURL.appendingPathComponent("shop")))
            config.replicatorType = .push
            config.maxAttemptWaitTime = 0.05
            config.addCollections([local.collection, products, notes])
            let replicator = Replicator(config: config)
            let recorder = ReplicationRecorder(replicator)
            replicator.start()
            #expect(try await recorder.waitUntilStopped().error == nil)
            #expect(try await client.get("/shop/home").json["n"] == 0)
            #expect(try await client.get("/shop.store.products/p1").json["price"] == 3)
            #expect(try await client.get("/shop.notes/n1").json["text"] == "hi")
            #expect(try await client.get("/shop._default.notes").json["doc_count"] == 1)
        }
        let shop = try Database(name: "shop", config: DatabaseConfiguration(directory: data.path))
        defer { try? shop.close() }
        #expect(try shop.collection(name: "products", scope: "store")?.document(id: "p1") != nil)
    }

    @Test func creatingACollectionNeedsTheOptionUnlessItExists() async throws {
        let (root, data) = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try await serving(data, creates: false) { (client: TestHTTPClient) async throws in
            #expect(try await client.send("PUT", "/alpha.store.products").status == 403)
            #expect(try await client.send("PUT", "/fresh.store.products").status == 403)
            #expect(try await client.send("PUT", "/beta.inventory.hotel").status == 412)
            #expect(try await client.get("/alpha.store.products").status == 404)
        }
        #expect(!Database.exists(withName: "fresh", inDirectory: data.path))
    }

    @Test func namesCouchDBRefusesAndNamesLeavingTheFolderAreRefused() async throws {
        let (root, data) = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try await serving(data) { client in
            for name in [
                "Upper", "9lives", "_users", "too.many.dots.here", "db.%5Fscope.c", "db..c", "Upper.scope.c",
                "has%20space", "a%2Fb", "..%2Foutside", "%2E%2E",
                "caf%C3%A9",
            ] {
                let reply = try await client.send("PUT", "/\(name)")
                let expected = name == "_users" ? 404 : 400
                #expect(reply.status == expected, "\(name): \(reply.text)")
                if expected == 400 {
                    #expect(reply.json["error"] == "illegal_database_name", "\(name)")
                    #expect(reply.json["reason"]?.stringValue?.contains("Name: '") == true, "\(name)")
                }
            }
            let long = "a" + String(repeating: "b", count: ListenerDatabaseFolder.maximumNameLength)
            #expect(try await client.send("PUT", "/\(long)").status == 400)
            #expect(try await client.send("PUT", "/ok-name_$()+").status == 201)
            for path in [
                "/..%2Foutside", "/..%2Foutside/_all_docs", "/%2E%2E%2Foutside", "/.quire-install.extract-1234",
            ] {
                #expect(try await client.get(path).status == 404, "\(path)")
                if !path.hasSuffix("_all_docs") {
                    #expect(try await client.send("DELETE", path).status == 404, "\(path)")
                }
            }
            #expect(try await client.get("/_all_dbs").json == ["alpha", "beta", "ok-name_$()+"])
        }
        #expect(Database.exists(withName: "outside", inDirectory: root.path))
        #expect(contents(of: root).filter { !$0.hasPrefix("data/") && !$0.hasPrefix("outside.quire") } == ["data"])
    }

    /// A symbolic link in the folder could lead outside it: a database folder that is a link,
    /// or whose SQLite file is one, is neither listed, read, created over nor deleted.
    @Test func databasesReachedThroughSymbolicLinksAreNotServed() async throws {
        let (root, data) = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let outside = root.appendingPathComponent("outside.quire")
        try FileManager.default.createSymbolicLink(
            at: data.appendingPathComponent("linked.quire"), withDestinationURL: outside)
        let inner = data.appendingPathComponent("inner.quire")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: inner.appendingPathComponent("db.sqlite3"),
            withDestinationURL: outside.appendingPathComponent("db.sqlite3"))
        #expect(Database.exists(withName: "linked", inDirectory: data.path))
        try await serving(data) { (client: TestHTTPClient) async throws in
            #expect(try await client.get("/_all_dbs").json == ["alpha", "beta"])
            for name in ["linked", "inner"] {
                #expect(try await client.get("/\(name)").status == 404, "\(name)")
                #expect(try await client.get("/\(name)/_all_docs").status == 404, "\(name)")
                #expect(try await client.put("/\(name)/doc", ["n": 1]).status == 404, "\(name)")
                #expect(try await client.send("PUT", "/\(name)").status == 412, "\(name)")
                #expect(try await client.send("DELETE", "/\(name)").status == 404, "\(name)")
            }
        }
        let reopened = try Database(name: "outside", config: DatabaseConfiguration(directory: root.path))
        defer { try? reopened.close() }
        #expect(try reopened.defaultCollection().count == 0)
    }

    #if os(Linux)
        /// Names are matched by their bytes, as Linux's file systems match them: `café` in NFC
        /// and in NFD are two databases, each reached only by its own spelling, also once the
        /// other is open.
        @Test func precomposedAndDecomposedNamesAreTwoDatabases() async throws {
            let (root, data) = try makeFolder()
            defer { try? FileManager.default.removeItem(at: root) }
            let composed = "caf\u{E9}"
            let decomposed = "cafe\u{301}"
            #expect(composed == decomposed, "Swift compares them as equal")
            for (name, n) in [(composed, 1), (decomposed, 2)] {
                let database = try Database(name: name, config: DatabaseConfiguration(directory: data.path))
                try database.defaultCollection().save(document: MutableDocument(id: "which", data: ["n": n]))
                try database.close()
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: data.path).filter { $0.hasPrefix("caf") }.count == 2
            )
            try await serving(data) { (client: TestHTTPClient) async throws in
                #expect(try await client.get("/_all_dbs").json.arrayValue?.count == 4)
                for _ in 0..<2 {
                    #expect(try await client.get("/caf%C3%A9/which").json["n"] == 1)
                    #expect(try await client.get("/cafe%CC%81/which").json["n"] == 2)
                }
            }
        }
    #endif

    @Test func creatingAndDeletingNeedTheirOptionsAndAWritableListener() async throws {
        let (root, data) = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try await serving(data, creates: false, deletes: false) { client in
            let create = try await client.send("PUT", "/fresh")
            #expect(create.status == 403)
            #expect(create.json["error"] == "forbidden")
            #expect(try await client.send("PUT", "/alpha").status == 412, "an existing database is 412 either way")
            #expect(try await client.send("DELETE", "/alpha").status == 403)
            #expect(try await client.send("POST", "/_all_dbs").status == 405)
            #expect(try await client.get("/_all_dbs?descending=true&limit=1").json == ["beta"])
            #expect(try await client.get("/_all_dbs?skip=1").json == ["beta"])
            #expect(try await client.get("/_all_dbs?limit=x").status == 400)
        }
        try await serving(data, readOnly: true) { (client: TestHTTPClient) async throws in
            #expect(try await client.send("PUT", "/fresh").status == 403)
            #expect(try await client.send("DELETE", "/alpha").status == 403)
            #expect(try await client.put("/alpha/new", ["n": 1]).status == 403)
            #expect(try await client.get("/alpha").status == 200)
        }
        #expect(Database.exists(withName: "alpha", inDirectory: data.path))
        #expect(!Database.exists(withName: "fresh", inDirectory: data.path))
        #expect(throws: QuireError.self) {
            try ListenerDatabaseFolder(directory: data.appendingPathComponent("none").path)
        }
    }
}

/// Names in a folder (recursive, relative).
private func contents(of folder: URL) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    return (enumerator.allObjects as? [String] ?? []).sorted()
}
