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

/// `quire serve` as a CouchDB replication peer: a client that knows only the protocol's
/// documentation (plain HTTP and JSON, none of Quire's types) pulls and pushes against the
/// executable, which is then stopped with SIGTERM and leaves the pushed data in the file.
@Suite(.serialized, .offCooperativePool) struct ServeCommandTests {
    @Test func aProtocolOnlyClientPullsAndPushesAgainstQuireServe() async throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let directory = try scratch.folder("data")
        do {
            let database = try Database(name: "served", config: DatabaseConfiguration(directory: directory.path))
            let collection = try database.defaultCollection()
            for index in 1...3 {
                try collection.save(document: MutableDocument(id: "doc\(index)", data: ["n": index, "kind": "seed"]))
            }
            let gone = try #require(try collection.document(id: "doc3"))
            try collection.delete(document: gone)
            try database.close()
        }

        let server = try ServedProcess(
            quire, ["serve", directory.appendingPathComponent("served.quire").path, "--port", "0"])
        defer { server.kill() }
        let base = try server.waitForURL()
        #expect(base.lastPathComponent == "served")
        let client = ProtocolClient(base: base)

        // Verify peers: the database exists and has an update sequence.
        let info = try await client.request("GET", "")
        #expect(info.status == 200)
        #expect(info.json["db_name"] as? String == "served")
        #expect(info.json["update_seq"] != nil)

        // Pull. No checkpoint yet, so from the start.
        #expect(try await client.request("GET", "/_local/protocol-pull").status == 404)
        let changes = try await client.request("GET", "/_changes?style=all_docs&since=0")
        #expect(changes.status == 200)
        let results = try #require(changes.json["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["id"] as? String } == ["doc1", "doc2", "doc3"])
        #expect(results.last?["deleted"] as? Bool == true)
        let lastSequence = try #require(changes.json["last_seq"])
        let wanted: [[String: Any]] = results.flatMap { row -> [[String: Any]] in
            let revisions = (row["changes"] as? [[String: Any]] ?? []).compactMap { $0["rev"] as? String }
            return revisions.map { ["id": row["id"] as? String ?? "", "rev": $0] }
        }
        let fetched = try await client.request("POST", "/_bulk_get?revs=true", body: ["docs": wanted])
        #expect(fetched.status == 200)
        let documents = (fetched.json["results"] as? [[String: Any]] ?? [])
            .flatMap { $0["docs"] as? [[String: Any]] ?? [] }
            .compactMap { $0["ok"] as? [String: Any] }
        #expect(documents.count == 3)
        let first = try #require(documents.first { $0["_id"] as? String == "doc1" })
        #expect(first["n"] as? Int == 1)
        #expect((first["_revisions"] as? [String: Any])?["start"] as? Int == 1)
        #expect(documents.first { $0["_id"] as? String == "doc3" }?["_deleted"] as? Bool == true)
        let checkpoint: [String: Any] = ["lastSequence": lastSequence, "session_id": "protocol-session"]
        #expect(try await client.request("PUT", "/_local/protocol-pull", body: checkpoint).status == 201)
        #expect(
            try await client.request("GET", "/_local/protocol-pull").json["session_id"] as? String == "protocol-session"
        )

        // Push: ask what is missing, send it with its history as it is, record a checkpoint.
        let revisionsDiff = try await client.request(
            "POST", "/_revs_diff", body: ["pushed": ["2-bbb"], "doc1": [first["_rev"] ?? ""]])
        #expect(revisionsDiff.status == 200)
        #expect((revisionsDiff.json["pushed"] as? [String: Any])?["missing"] as? [String] == ["2-bbb"])
        #expect(revisionsDiff.json["doc1"] == nil)
        let pushed: [String: Any] = [
            "_id": "pushed", "_rev": "2-bbb", "_revisions": ["start": 2, "ids": ["bbb", "aaa"]], "from": "client",
        ]
        let upload = try await client.request("POST", "/_bulk_docs", body: ["docs": [pushed], "new_edits": false])
        #expect(upload.status == 201)
        #expect(try await client.request("POST", "/_ensure_full_commit", body: [:]).status == 201)
        #expect(try await client.request("PUT", "/_local/protocol-push", body: ["last_seq": 1]).status == 201)
        let readBack = try await client.request("GET", "/pushed?revs=true")
        #expect(readBack.json["_rev"] as? String == "2-bbb")
        #expect(readBack.json["from"] as? String == "client")

        // A changes feed since the pull's checkpoint lists only the pushed document.
        let since = (lastSequence as? String) ?? "\(lastSequence)"
        let next = try await client.request("GET", "/_changes?since=\(since)")
        #expect((next.json["results"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["pushed"])

        // SIGTERM stops the server cleanly; the pushed revision is in the file.
        #expect(server.terminate() == 0)
        let reopened = try Database(name: "served", config: DatabaseConfiguration(directory: directory.path))
        defer { try? reopened.close() }
        let stored = try #require(try reopened.defaultCollection().document(id: "pushed"))
        #expect(stored.revisionID == "2-bbb")
        #expect(stored.string(forKey: "from") == "client")
    }

    @Test func readOnlyServeRefusesWritesAndStillAnswersReads() async throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let directory = try scratch.folder("data")
        do {
            let database = try Database(name: "shelf", config: DatabaseConfiguration(directory: directory.path))
            try database.defaultCollection().save(document: MutableDocument(id: "kept", data: ["n": 1]))
            try database.close()
        }

        let server = try ServedProcess(
            quire, ["serve", directory.appendingPathComponent("shelf.quire").path, "--port", "0", "--read-only"])
        defer { server.kill() }
        let client = ProtocolClient(base: try server.waitForURL())

        let refused = try await client.request("PUT", "/added", body: ["n": 2])
        #expect(refused.status == 403)
        #expect(refused.json["error"] as? String == "forbidden")
        #expect((refused.json["reason"] as? String ?? "").contains("read-only"), "\(refused.json)")
        let bulk = try await client.request("POST", "/_bulk_docs", body: ["docs": [["_id": "bulk", "n": 3]]])
        #expect(bulk.status == 403)

        let info = try await client.request("GET", "")
        #expect(info.status == 200)
        #expect(info.json["db_name"] as? String == "shelf")
        let kept = try await client.request("GET", "/kept")
        #expect(kept.status == 200)
        #expect(kept.json["n"] as? Int == 1)
        #expect(try await client.request("GET", "/added").status == 404)
        let changes = try await client.request("GET", "/_changes")
        #expect((changes.json["results"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["kept"])

        #expect(server.terminate() == 0)
        let reopened = try Database(name: "shelf", config: DatabaseConfiguration(directory: directory.path))
        defer { try? reopened.close() }
        #expect(try reopened.defaultCollection().document(id: "added") == nil)
        #expect(try reopened.defaultCollection().document(id: "bulk") == nil)
    }

    @Test func serveRefusesAMissingDatabase() throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let server = try ServedProcess(quire, ["serve", scratch.file("absent.quire").path, "--port", "0"])
        defer { server.kill() }
        // Exit 1 as `quire db info` of a missing database, not 64 with the usage.
        #expect(server.terminate(signal: nil) == 1)
        #expect(server.output.contains("No database 'absent'") && !server.output.contains("Usage:"))
    }
    @Test func serveRefusesAnOpenInterfaceWithoutAuthentication() throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let directory = try scratch.folder("data")
        try Database(name: "open", config: DatabaseConfiguration(directory: directory.path)).close()
        let path = directory.appendingPathComponent("open.quire").path
        for (arguments, message) in [
            (["--interface", "0.0.0.0"], "without authentication"),
            (["--interface", "192.168.1.10"], "without authentication"),
            // Loopback is decided from the resolved address, not from a spelling that starts with 127.
            (["--interface", "127.0.0.1.example.invalid"], "does not resolve"),
            (["--interface", "::ffff:10.0.0.1"], "without authentication"),
            (["--user", "sync"], "--user and --password-file go together"),
            (["--max-connections", "0"], "--max-connections must be at least 1"),
            (["--write-timeout", "0"], "--write-timeout must be more than 0"),
            (["--max-body", "lots"], "is not a size in bytes"),
            (["--cors-origin", "example.com"], "--cors-origin 'example.com'"),
            (["--user", "sync", "--password-file", scratch.file("missing").path], "Cannot read the password file"),
        ] {
            let server = try ServedProcess(quire, ["serve", path, "--port", "0"] + arguments)
            defer { server.kill() }
            #expect(server.terminate(signal: nil) != 0, "\(arguments)")
            #expect(server.output.contains(message), "\(arguments): \(server.output)")
        }
        // Said explicitly, an open interface without authentication is served.
        let open = try ServedProcess(
            quire, ["serve", path, "--port", "0", "--interface", "0.0.0.0", "--insecure-no-auth"])
        defer { open.kill() }
        _ = try open.waitForURL()
        #expect(open.terminate() == 0)
        // Names and addresses that resolve to loopback are served without authentication.
        for interface in ["localhost", "127.0.0.2", "::1"] {
            let loopback = try ServedProcess(quire, ["serve", path, "--port", "0", "--interface", interface])
            defer { loopback.kill() }
            _ = try loopback.waitForURL()
            #expect(loopback.terminate() == 0, "\(interface): \(loopback.output)")
        }
    }

    @Test func serveWithAuthenticationLimitsCORSAndAnAccessLog() async throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let directory = try scratch.folder("data")
        try Database(name: "guarded", config: DatabaseConfiguration(directory: directory.path)).close()
        let passwordFile = scratch.file("password")
        // CRLF line endings: the password is the first line without them.
        try Data("s3cret\r\n".utf8).write(to: passwordFile)
        // Readable by every user: served, with a warning.
        chmod(passwordFile.path, 0o644)
        let logFile = scratch.file("access.log")
        let server = try ServedProcess(
            quire,
            [
                "serve", directory.appendingPathComponent("guarded.quire").path, "--port", "0", "--interface",
                "0.0.0.0",
                "--user", "sync", "--password-file", passwordFile.path, "--max-body", "1K", "--max-connections", "8",
                "--idle-timeout", "30", "--cors-origin", "https://app.example.com", "--log", logFile.path,
            ])
        defer { server.kill() }
        let port = try #require(try server.waitForURL().port)
        let basic = "Authorization: Basic " + Data("sync:s3cret".utf8).base64EncodedString()

        #expect(try rawRequest(port: port, "GET /guarded HTTP/1.1").hasPrefix("HTTP/1.1 401"))
        #expect(
            try rawRequest(port: port, "GET /guarded HTTP/1.1\r\nAuthorization: Basic c3luYzp3cm9uZw==").hasPrefix(
                "HTTP/1.1 401"))
        #expect(try rawRequest(port: port, "GET /guarded HTTP/1.1\r\n\(basic)").hasPrefix("HTTP/1.1 200"))
        let big = String(repeating: "x", count: 2000)
        let tooLarge = try rawRequest(
            port: port, "PUT /guarded/big HTTP/1.1\r\n\(basic)\r\nContent-Length: \(big.count + 10)",
            body: #"{"v":"\#(big)"}"#)
        #expect(tooLarge.hasPrefix("HTTP/1.1 413"))
        let preflight = try rawRequest(
            port: port,
            "OPTIONS /guarded/doc HTTP/1.1\r\nOrigin: https://app.example.com\r\nAccess-Control-Request-Method: PUT")
        #expect(preflight.hasPrefix("HTTP/1.1 204"))
        #expect(preflight.lowercased().contains("access-control-allow-origin: https://app.example.com"))
        #expect(preflight.lowercased().contains("access-control-allow-credentials: true"))

        #expect(server.terminate() == 0)
        #expect(
            server.output.contains("warning: the password file \(passwordFile.path) can be read by every user"),
            "\(server.output)")
        let log = String(decoding: try Data(contentsOf: logFile), as: UTF8.self).split(separator: "\n")
        #expect(log.count == 5, "\(log)")
        #expect(log.map { $0.split(separator: " ")[2] } == ["-", "-", "sync", "sync", "-"])
        #expect(
            log.map { $0.split(separator: "\"")[2].split(separator: " ")[0] } == ["401", "401", "200", "413", "204"])

        // A private password file: no warning.
        chmod(passwordFile.path, 0o600)
        let quiet = try ServedProcess(
            quire,
            [
                "serve", directory.appendingPathComponent("guarded.quire").path, "--port", "0", "--user", "sync",
                "--password-file", passwordFile.path,
            ])
        defer { quiet.kill() }
        _ = try quiet.waitForURL()
        #expect(quiet.terminate() == 0)
        #expect(!quiet.output.contains("warning"), "\(quiet.output)")
    }
}

/// Sends `head` (request line and headers; Host and Connection: close are added) and `body`
/// over a fresh loopback connection and returns the whole reply as text.
private func rawRequest(port: Int, _ head: String, body: String = "") throws -> String {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw QuireError(.networkError, "socket() failed") }
    defer { close(descriptor) }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw QuireError(.networkError, "connect() failed") }
    let bytes = Array((head + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" + body).utf8)
    guard send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
        throw QuireError(.networkError, "send() failed")
    }
    var received = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = receiveRetryingInterrupts(descriptor, &chunk, chunk.count)
        if count <= 0 { break }
        received += chunk[0..<count]
    }
    return String(decoding: received, as: UTF8.self)
}

/// HTTP with JSON bodies and nothing else, as the protocol's documentation describes it.
private struct ProtocolClient {
    let base: URL

    func request(_ method: String, _ path: String, body: [String: Any]? = nil) async throws -> (
        status: Int, json: [String: Any]
    ) {
        var request = URLRequest(url: URL(string: base.absoluteString + path)!)
        request.httpMethod = method
        request.timeoutInterval = 30
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (status, json)
    }
}

/// The `quire` executable running in a child process, its output collected (also used by
/// the folder-serving tests).
final class ServedProcess: @unchecked Sendable {
    // Safe because the child is only signalled and reaped through `SpawnedProcess`, which locks
    // its status, and the output is read from a file the child writes.

    // Spawned with `posix_spawn`, not Foundation's `Process`: `Process.run` lists
    // `/proc/self/fd` into a fixed buffer, which AddressSanitizer reports as an overflow while
    // another suite holds many sockets.
    private let process: SpawnedProcess
    private let outputFile: URL

    init(_ executable: URL, _ arguments: [String]) throws {
        outputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-served-\(UUID().uuidString).log")
        process = try SpawnedProcess(
            executable: executable, arguments: arguments,
            directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            environment: ProcessInfo.processInfo.environment, output: outputFile)
    }

    deinit { try? FileManager.default.removeItem(at: outputFile) }

    var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// The first URL the server prints ("Serving http://..."), within 60 seconds.
    func waitForURL() throws -> URL {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("Serving ") }),
                let url = URL(string: String(line.dropFirst("Serving ".count)))
            {
                return url
            }
            if !process.isRunning, output.isEmpty == false, !output.contains("Serving ") {
                throw QuireError(.notFound, "quire serve ended early: \(output)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw QuireError(.timeout, "quire serve printed no URL within 60 s: \(output)")
    }

    /// Sends `signal` (SIGTERM by default, nothing when nil), waits up to 30 s for the exit
    /// and returns the exit status.
    func terminate(signal: Int32? = SIGTERM) -> Int32 {
        if let signal, process.isRunning { Foundation.kill(process.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }
}
