import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// The listener's connection limits: the connection cap, the request-head timeout, the idle
/// timeout and the in-flight body budget. Each test decides by what the server does (answers,
/// closes a connection, counts a waiting body), with short configured timeouts; waits are
/// bounded only as a safety net.
@Suite struct ListenerLimitsTests {
    /// A PUT of a JSON document of exactly `size` bytes.
    private func documentBody(size: Int) -> Data {
        let padding = String(repeating: "x", count: size - #"{"pad":""}"#.utf8.count)
        return Data(#"{"pad":"\#(padding)"}"#.utf8)
    }

    /// A connection whose `GET path` was answered. Under the short timeouts these tests set, a
    /// loaded machine (a sanitizer build, a full suite on 2 cores) can send a request only after
    /// the listener has rightly closed the connection for waiting too long; such an attempt
    /// proves nothing either way, so it is dropped and another made.
    private func answeredConnection(port: UInt16, _ path: String = "/db") async throws -> KeepAliveConnection {
        var lastError: any Error = QuireError(.networkError, "no attempt made")
        for _ in 0..<20 {
            let connection = try KeepAliveConnection(port: port)
            do {
                if try await connection.request("GET", path).status == 200 { return connection }
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    @Test func connectionsBeyondTheCapWaitUntilOneCloses() async throws {
        try await ListenerHarness.with(adjust: { $0.maxConnections = 2 }) { harness async throws in
            let port = harness.listener.port ?? 0
            let first = try KeepAliveConnection(port: port)
            let second = try KeepAliveConnection(port: port)
            #expect(try await first.request("GET", "/db").status == 200)
            #expect(try await second.request("GET", "/db").status == 200)
            // The third connects (the kernel queues it) but is not served while two are open.
            let third = try KeepAliveConnection(port: port)
            let queued = Task { try await third.request("GET", "/db") }
            #expect(try await first.request("GET", "/db").status == 200)
            try await Task.sleep(for: .milliseconds(200))
            #expect(harness.listener.acceptedConnectionCount == 2)
            #expect(harness.listener.openConnectionCount == 2)
            // A slot frees: the queued connection is accepted and answered.
            first.shutdown()
            let reply = try await queued.value
            #expect(reply.status == 200)
            #expect(harness.listener.acceptedConnectionCount == 3)
            #expect(try await second.request("GET", "/db").status == 200)
        }
    }

    @Test func aHalfSentHeadIsDroppedAfterTheHeadTimeout() async throws {
        try await ListenerHarness.with(adjust: {
            // Long enough for a loaded machine to send a whole request just after connecting.
            $0.requestHeadTimeout = .milliseconds(500)
            $0.idleTimeout = .seconds(600)
        }) { harness async throws in
            let port = harness.listener.port ?? 0
            let stalled = try KeepAliveConnection(port: port)
            try await stalled.send(Data("GET /db HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8))
            #expect(await stalled.waitForClose())
            // On a kept connection the clock starts again with the next head's first byte.
            let kept = try await answeredConnection(port: port)
            try await kept.send(Data("GET /db HTTP/1.1\r\n".utf8))
            #expect(await kept.waitForClose())
            // A connection that sends nothing is closed as well.
            let silent = try KeepAliveConnection(port: port)
            #expect(await silent.waitForClose())
            // Whole requests are still answered.
            #expect(try await harness.client.get("/db").status == 200)
        }
    }

    @Test func idleConnectionsCloseButAWaitingFeedDoesNot() async throws {
        // Long enough for a loaded machine to send a request just after connecting.
        try await ListenerHarness.with(adjust: { $0.idleTimeout = .seconds(1) }) { harness async throws in
            let port = harness.listener.port ?? 0
            let since = try harness.collection.lastSequence()
            // The feed's request must reach the listener within the 1 s idle timeout of its
            // connection; an attempt that a loaded machine sends too late is closed (rightly)
            // and another made.
            var opened: Task<KeepAliveConnection.Reply, any Error>?
            for _ in 0..<20 where opened == nil {
                let feed = try KeepAliveConnection(port: port)
                let pending = Task {
                    try await feed.request("GET", "/db/_changes?feed=longpoll&since=\(since)&timeout=600000")
                }
                let ended = EndFlag()
                Task {
                    _ = try? await pending.value
                    ended.set()
                }
                try await eventually(timeout: 120, "the feed open or its connection closed") {
                    harness.listener.activeFeedCount == 1 || ended.isSet
                }
                if harness.listener.activeFeedCount == 1 { opened = pending }
            }
            let pending = try #require(opened)
            // Opened after the feed started, answered, then idle: closed by the idle timeout.
            let idle = try await answeredConnection(port: port)
            #expect(await idle.waitForClose())
            // The feed has waited longer than that and is still there to answer.
            try harness.save("late", #"{"v":1}"#)
            let reply = try await pending.value
            #expect(try ChangesResponse(json: reply.json).results.map(\.id) == ["late"])
            #expect(!reply.saysClose)
        }
    }

    @Test func bodiesBeyondTheInFlightBudgetWaitTheirTurn() async throws {
        try await ListenerHarness.with(adjust: {
            $0.maxRequestBodySize = 150_000
            $0.maxInFlightBodyBytes = 200_000
        }) { harness async throws in
            let port = harness.listener.port ?? 0
            let firstBody = documentBody(size: 120_000)
            let secondBody = documentBody(size: 120_000)
            // The first body is announced and half sent: its reservation holds 120,000 bytes.
            let first = try KeepAliveConnection(port: port)
            try await first.send(
                Data("PUT /db/first HTTP/1.1\r\nHost: x\r\nContent-Length: \(firstBody.count)\r\n\r\n".utf8)
                    + firstBody.prefix(1000))
            try await eventually(timeout: 60, "the first body reserved") {
                harness.listener.bodyBudgetUse.bytes == 120_000
            }
            // The second does not fit beside it and waits.
            let second = try KeepAliveConnection(port: port)
            let secondReply = Task { try await second.request("PUT", "/db/second", body: secondBody) }
            try await eventually(timeout: 60, "the second body waiting") { harness.listener.bodyBudgetUse.waiting == 1 }
            // Small requests pass meanwhile.
            #expect(try await harness.client.put("/db/small", ["v": 1]).status == 201)
            // The first finishes: both are stored.
            try await first.send(firstBody.dropFirst(1000))
            #expect(try await first.readReply().status == 201)
            #expect(try await secondReply.value.status == 201)
            #expect(try harness.collection.document(id: "first") != nil)
            #expect(try harness.collection.document(id: "second") != nil)
            try await eventually(timeout: 60, "the budget released") { harness.listener.bodyBudgetUse == (0, 0) }
        }
    }

    @Test func limitsThatCannotWorkAreRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "quire-limits-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(name: "db", config: DatabaseConfiguration(directory: directory.path))
        defer { try? database.close() }
        let collections = [try database.defaultCollection()]
        for adjust in [
            { (config: inout URLEndpointListenerConfiguration) in config.maxConnections = 0 },
            { $0.idleTimeout = .zero },
            { $0.requestHeadTimeout = .seconds(-1) },
            { $0.corsOrigins = ["example.com"] },
        ] as [(inout URLEndpointListenerConfiguration) -> Void] {
            var config = URLEndpointListenerConfiguration(collections: collections, networkInterface: "127.0.0.1")
            adjust(&config)
            let listener = URLEndpointListener(config: config)
            let error = await #expect(throws: QuireError.self) { try await listener.start() }
            #expect(error?.code == .invalidParameter)
        }
    }
}

/// Set once a request's task has ended, answered or not.
private final class EndFlag: @unchecked Sendable {
    // Safe because every access holds `lock`.
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
