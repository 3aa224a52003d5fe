import Foundation
import Quire
import QuireFixturesTestSupport
import QuireTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `quire serve DIR`: every database of a folder served as CouchDB serves its own, stopped
/// cleanly by SIGINT or SIGTERM.
@Suite(.serialized, .offCooperativePool) struct ServeFolderCommandTests {
    @Test func serveAFolderCreatesListsAndDeletesDatabases() async throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let directory = try scratch.folder("data")
        let shelf = try Database(name: "shelf", config: DatabaseConfiguration(directory: directory.path))
        try shelf.defaultCollection().save(document: MutableDocument(id: "kept", data: ["n": 1]))
        try shelf.close()

        let server = try ServedProcess(
            quire, ["serve", directory.path, "--port", "0", "--create-databases", "--allow-delete"])
        defer { server.kill() }
        let root = try server.waitForURL()
        #expect(root.path == "/")
        #expect(server.output.contains("1 database: shelf"), "\(server.output)")

        #expect(try await request("GET", root, "_all_dbs").text == "[\"shelf\"]\n")
        #expect(try await request("GET", root, "shelf/kept").status == 200)
        #expect(try await request("PUT", root, "fresh").status == 201)
        #expect(try await request("PUT", root, "fresh/doc", body: #"{"made":"remotely"}"#).status == 201)
        #expect(try await request("PUT", root, "Fresh").status == 400)
        #expect(try await request("PUT", root, "gone").status == 201)
        #expect(try await request("DELETE", root, "gone").status == 200)
        #expect(try await request("GET", root, "_all_dbs").text == "[\"fresh\",\"shelf\"]\n")

        #expect(server.terminate(signal: SIGINT) == 0)
        let fresh = try Database(name: "fresh", config: DatabaseConfiguration(directory: directory.path))
        defer { try? fresh.close() }
        #expect(try fresh.defaultCollection().document(id: "doc")?.string(forKey: "made") == "remotely")
        #expect(!Database.exists(withName: "gone", inDirectory: directory.path))
    }

    @Test func aFolderRefusesCreatingAndDeletingUnlessAskedAndOneDatabaseRefusesTheOptions() async throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let directory = try scratch.folder("data")
        try Database(name: "shelf", config: DatabaseConfiguration(directory: directory.path)).close()

        let server = try ServedProcess(quire, ["serve", directory.path, "--port", "0"])
        defer { server.kill() }
        let root = try server.waitForURL()
        #expect(try await request("PUT", root, "fresh").status == 403)
        #expect(try await request("DELETE", root, "shelf").status == 403)
        #expect(server.terminate() == 0)
        #expect(!Database.exists(withName: "fresh", inDirectory: directory.path))

        let single = try ServedProcess(
            quire, ["serve", directory.appendingPathComponent("shelf.quire").path, "--port", "0", "--create-databases"])
        defer { single.kill() }
        #expect(single.terminate(signal: nil) != 0)
        #expect(single.output.contains("apply to a folder of databases"), "\(single.output)")
    }
}

/// One request to `root` + `path` with an optional JSON body: the status and the body text.
private func request(_ method: String, _ root: URL, _ path: String, body: String? = nil) async throws -> (
    status: Int, text: String
) {
    var request = URLRequest(url: URL(string: root.absoluteString + path)!, timeoutInterval: 30)
    request.httpMethod = method
    if let body {
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
}
