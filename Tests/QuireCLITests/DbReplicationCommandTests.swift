import Foundation
import Quire
import QuireSync
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `quire db push` and `quire db pull` against a listener in the test process: collections,
/// document IDs, the summary, and a peer that never answers.
@Suite struct DbReplicationCommandTests {
    /// A database served by a listener on a free loopback port.
    struct Served {
        let database: Database
        let listener: URLEndpointListener
        let url: URL

        init(name: String, in folder: URL) async throws {
            database = try Database(name: name, config: DatabaseConfiguration(directory: folder.path))
            let products = try database.createCollection(name: "products", scope: "store")
            listener = URLEndpointListener(
                config: URLEndpointListenerConfiguration(
                    collections: [try database.defaultCollection(), products], port: 0, networkInterface: "127.0.0.1"))
            try await listener.start()
            url = try #require(URL(string: "http://127.0.0.1:\(listener.port ?? 0)/\(name)"))
        }

        func stop() async {
            await listener.stop()
            try? database.close()
        }
    }

    @Test func pushAndPullWithTheReplicatorsOptions() async throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"), directory: scratch.url)
        let served = try await Served(name: "remote", in: scratch.file("server"))
        _ = try quire.succeed(["db", "create", "local", "--collection", "store.products"])
        for id in ["p1", "p2", "p3"] {
            _ = try quire.succeed(["db", "put", "local", id, #"{"name":"\#(id)"}"#, "-c", "store.products"])
        }
        _ = try quire.succeed(["db", "put", "local", "note", #"{"text":"hello"}"#])

        let pushed = try quire.succeed(["db", "push", "local", served.url.absoluteString, "--collection", "store.products", "--doc-id", "p1", "--doc-id", "p3"])
        #expect(pushed.hasPrefix("Pushed 2 documents to \(served.url.absoluteString) in "), "\(pushed)")
        let products = try #require(try served.database.collection(name: "products", scope: "store"))
        #expect(try products.liveDocuments().map(\.id) == ["p1", "p3"])
        #expect(try served.database.defaultCollection().count == 0)

        let everything = try JSONReader.parse(try quire.succeed(["db", "push", "local", served.url.absoluteString, "--json"]))
        #expect(everything["documents"] == 2 && everything["failed"] == 0 && everything["direction"] == "push", "\(everything)")
        #expect(try products.liveDocuments().map(\.id) == ["p1", "p2", "p3"])
        #expect(try served.database.defaultCollection().document(id: "note")?.string(forKey: "text") == "hello")

        // Pull into a new database: the named collection is created, only the chosen documents come.
        _ = try quire.succeed(["db", "create", "copy"])
        let pulled = try quire.succeed(["db", "pull", "copy", served.url.absoluteString, "--collection", "store.products", "--doc-id", "p2"])
        #expect(pulled.hasPrefix("Pulled 1 documents from "), "\(pulled)")
        let listed = try quire.succeed(["db", "ls", "copy", "store.products", "--json"])
        #expect(try listed.split(separator: "\n").map { try JSONReader.parse(String($0))["id"] } == ["p2"])
        let info = try JSONReader.parse(try quire.succeed(["db", "info", "copy", "--json"]))
        let copied = info["collections"]?.arrayValue?.first { $0["name"] == "store.products" }
        #expect(copied?["checkpoints"]?.arrayValue?.count == 1, "the pull kept its checkpoint: \(info)")
        await served.stop()
    }

    /// A peer that accepts the connection and never answers: both directions end after
    /// --timeout with one sentence naming the URL, and exit 1.
    @Test(arguments: ["push", "pull"])
    func aPeerThatNeverAnswersTimesOut(direction: String) throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"), directory: scratch.url)
        let silent = try SilentPeer()
        defer { silent.close() }
        _ = try quire.succeed(["db", "create", "local"])
        _ = try quire.succeed(["db", "put", "local", "a", "{}"])
        let url = "http://127.0.0.1:\(silent.port)/remote"
        let outcome = try quire.run(["db", direction, "local", url, "--timeout", "1"])
        #expect(outcome.status == 1, "\(outcome.errors)")
        let preposition = direction == "push" ? "push to" : "pull from"
        #expect(outcome.errors.hasPrefix("Error: The \(preposition) \(url) stopped: "), "\(outcome.errors)")
        #expect(outcome.errors.lowercased().contains("timed out") || outcome.errors.lowercased().contains("timeout"), "\(outcome.errors)")
        #expect(outcome.errors.filter { $0 == "\n" }.count == 1)
    }

    /// A loopback TCP socket that listens and never accepts: connections complete in the
    /// kernel's backlog and requests wait forever.
    final class SilentPeer {
        let descriptor: Int32
        let port: UInt16

        init() throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Bool in
                    bind(descriptor, raw, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, raw, &length) == 0
                }
            }
            guard descriptor >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
            port = UInt16(bigEndian: address.sin_port)
        }

        func close() { _ = Glibc.close(descriptor) }
    }
}
