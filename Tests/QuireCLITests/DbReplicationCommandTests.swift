import Foundation
import Quire
import QuireSync
import QuireTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `quire db push` and `quire db pull` against a listener in the test process: collections,
/// document IDs, the summary, and a peer that never answers.
@Suite(.offCooperativePool) struct DbReplicationCommandTests {
    /// `quire serve` on a database of its own (the default collection and store.products),
    /// on a free loopback port; `url` is what it prints.
    struct Served {
        let process: DbBackgroundCommand
        let url: String

        init(_ quire: DbCommandRunner, name: String) throws {
            _ = try quire.succeed(["db", "create", "server/\(name).quire", "--collection", "store.products"])
            process = try quire.start(["serve", "server/\(name).quire", "--port", "0"])
            url = String(try process.waitForLine(startingWith: "Serving ").dropFirst("Serving ".count))
        }

        /// Stops the server (which must exit cleanly) so its database can be read.
        func stop() {
            let output = process.output
            if let status = process.stop() { #expect(status == 0, "quire serve: \(output)") }
        }
    }

    @Test func pushAndPullWithTheReplicatorsOptions() throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"),
            directory: scratch.url)
        let served = try Served(quire, name: "remote")
        defer { served.stop() }
        _ = try quire.succeed(["db", "create", "local", "--collection", "store.products"])
        for id in ["p1", "p2", "p3"] {
            _ = try quire.succeed(["db", "put", "local", id, #"{"name":"\#(id)"}"#, "-c", "store.products"])
        }
        _ = try quire.succeed(["db", "put", "local", "note", #"{"text":"hello"}"#])

        func remoteIDs(_ collection: String) throws -> [JSONValue?] {
            // A second database, pulled from the server, shows what the server holds.
            let probe = "probe-\(UUID().uuidString.prefix(8))"
            _ = try quire.succeed(["db", "create", probe])
            _ = try quire.succeed(["db", "pull", probe, served.url, "--collection", collection])
            return try quire.succeed(["db", "ls", probe, collection, "--json"]).split(separator: "\n").map {
                try JSONReader.parse(String($0))["id"]
            }
        }
        let pushed = try quire.succeed([
            "db", "push", "local", served.url, "--collection", "store.products", "--doc-id", "p1", "--doc-id", "p3",
        ])
        #expect(pushed.hasPrefix("Pushed 2 documents to \(served.url) in "), "\(pushed)")
        #expect(try remoteIDs("store.products") == ["p1", "p3"])
        #expect(try remoteIDs("_default").isEmpty)

        let everything = try JSONReader.parse(try quire.succeed(["db", "push", "local", served.url, "--json"]))
        #expect(
            everything["documents"] == 2 && everything["failed"] == 0 && everything["direction"] == "push",
            "\(everything)")
        #expect(try remoteIDs("store.products") == ["p1", "p2", "p3"])
        #expect(try remoteIDs("_default") == ["note"])

        // Pull into a new database: the named collection is created, only the chosen documents come.
        _ = try quire.succeed(["db", "create", "copy"])
        let pulled = try quire.succeed([
            "db", "pull", "copy", served.url, "--collection", "store.products", "--doc-id", "p2",
        ])
        #expect(pulled.hasPrefix("Pulled 1 documents from "), "\(pulled)")
        let listed = try quire.succeed(["db", "ls", "copy", "store.products", "--json"])
        #expect(try listed.split(separator: "\n").map { try JSONReader.parse(String($0))["id"] } == ["p2"])
        let info = try JSONReader.parse(try quire.succeed(["db", "info", "copy", "--json"]))
        let copied = info["collections"]?.arrayValue?.first { $0["name"] == "store.products" }
        #expect(copied?["checkpoints"]?.arrayValue?.count == 1, "the pull kept its checkpoint: \(info)")
    }

    /// A peer that accepts the connection and never answers: both directions end after
    /// --timeout with one sentence naming the URL, and exit 1.
    @Test(arguments: ["push", "pull"])
    func aPeerThatNeverAnswersTimesOut(direction: String) throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"),
            directory: scratch.url)
        let silent = try SilentPeer()
        defer { silent.close() }
        _ = try quire.succeed(["db", "create", "local"])
        _ = try quire.succeed(["db", "put", "local", "a", "{}"])
        let url = "http://127.0.0.1:\(silent.port)/remote"
        let outcome = try quire.run(["db", direction, "local", url, "--timeout", "1"])
        #expect(outcome.status == 1, "\(outcome.errors)")
        let preposition = direction == "push" ? "push to" : "pull from"
        #expect(outcome.errors.hasPrefix("Error: The \(preposition) \(url) stopped: "), "\(outcome.errors)")
        #expect(
            outcome.errors.lowercased().contains("timed out") || outcome.errors.lowercased().contains("timeout"),
            "\(outcome.errors)")
        #expect(outcome.errors.filter { $0 == "\n" }.count == 1)
    }

    /// A pull that fails leaves no collection it created for the pull.
    @Test func aFailedPullLeavesNoCollectionItCreated() throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"),
            directory: scratch.url)
        let silent = try SilentPeer()
        defer { silent.close() }
        _ = try quire.succeed(["db", "create", "local"])
        let url = "http://127.0.0.1:\(silent.port)/remote"
        let outcome = try quire.run(["db", "pull", "local", url, "-c", "store.fresh", "--timeout", "1"])
        #expect(outcome.status == 1, "\(outcome.errors)")
        let names = try quire.succeed(["db", "lscoll", "local", "--json"]).split(separator: "\n").map {
            try JSONReader.parse(String($0))["name"]
        }
        #expect(names == ["_default._default"])
    }

    /// A loopback TCP socket that listens and never accepts: connections complete in the
    /// kernel's backlog and requests wait forever.
    final class SilentPeer {
        let descriptor: Int32
        let port: UInt16

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Bool in
                    bind(descriptor, raw, length) == 0 && listen(descriptor, 16) == 0
                        && getsockname(descriptor, raw, &length) == 0
                }
            }
            guard descriptor >= 0, bound else {
                if descriptor >= 0 { _ = Glibc.close(descriptor) }
                throw POSIXError(.EADDRNOTAVAIL)
            }
            self.descriptor = descriptor
            port = UInt16(bigEndian: address.sin_port)
        }

        func close() { _ = Glibc.close(descriptor) }
    }
}
