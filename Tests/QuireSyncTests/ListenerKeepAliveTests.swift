import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// Every answer of the listener leaves its connection usable for the next request (HTTP/1.1
/// keep-alive), or says `Connection: close` and closes: a client with keep-alive (PouchDB on
/// Node, libcurl, Quire's replicator) sends its next request on the same socket.
@Suite struct ListenerKeepAliveTests {
    /// Sends a request on `connection` after an answer and checks it is answered on the same
    /// connection (the listener accepted no other).
    private func expectReused(_ connection: KeepAliveConnection, _ harness: ListenerHarness) async throws {
        let next = try await connection.request("GET", "/db")
        #expect(next.status == 200)
        #expect(next.json["db_name"] == "db")
        #expect(harness.listener.acceptedConnectionCount == 1)
    }

    private func waitForFeeds(_ harness: ListenerHarness) async throws {
        try await eventually(timeout: 120, "a feed open") { harness.listener.activeFeedCount == 1 }
    }

    @Test func aNormalFeedKeepsItsConnection() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("a", #"{"v":1}"#)
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            let reply = try await connection.request("GET", "/db/_changes?since=0")
            #expect(reply.status == 200)
            #expect(!reply.saysClose)
            #expect(try ChangesResponse(json: reply.json).results.map(\.id) == ["a"])
            try await expectReused(connection, harness)
        }
    }

    @Test func aLongpollFeedEndedByAChangeKeepsItsConnection() async throws {
        try await ListenerHarness.with { harness async throws in
            let since = try harness.collection.lastSequence()
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            let pending = Task { try await connection.request("GET", "/db/_changes?feed=longpoll&since=\(since)") }
            try await waitForFeeds(harness)
            try harness.save("late", #"{"v":1}"#)
            let reply = try await pending.value
            #expect(reply.status == 200)
            #expect(!reply.saysClose)
            #expect(try ChangesResponse(json: reply.json).results.map(\.id) == ["late"])
            // What PouchDB sends next, on the same socket.
            let docs = try await connection.request("GET", "/db/_all_docs?include_docs=true&keys=%5B%22late%22%5D")
            #expect(docs.status == 200)
            #expect(docs.json["rows"]?[0]?["doc"]?["v"] == 1)
            try await expectReused(connection, harness)
        }
    }

    @Test func aLongpollFeedEndedByItsTimeoutOrAnsweredAtOnceKeepsItsConnection() async throws {
        try await ListenerHarness.with { harness async throws in
            let since = try harness.collection.lastSequence()
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            let empty = try await connection.request("GET", "/db/_changes?feed=longpoll&since=\(since)&timeout=20")
            #expect(empty.status == 200)
            #expect(empty.json["results"] == [])
            try harness.save("a", #"{"v":1}"#)
            let atOnce = try await connection.request("GET", "/db/_changes?feed=longpoll&since=0")
            #expect(try ChangesResponse(json: atOnce.json).results.map(\.id) == ["a"])
            try await expectReused(connection, harness)
        }
    }

    @Test func aContinuousFeedEndedByItsLimitOrTimeoutKeepsItsConnection() async throws {
        try await ListenerHarness.with { harness async throws in
            let since = try harness.collection.lastSequence()
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            // Ends by its limit, on a change made while it waits.
            let pending = Task {
                try await connection.request(
                    "GET", "/db/_changes?feed=continuous&since=\(since)&limit=1&timeout=600000")
            }
            try await waitForFeeds(harness)
            try harness.save("a", #"{"v":1}"#)
            let limited = try await pending.value
            #expect(limited.status == 200)
            #expect(!limited.saysClose)
            #expect(limited.text.contains(#""id":"a""#))
            #expect(limited.text.contains(#""last_seq""#))
            // Ends by its timeout.
            let timedOut = try await connection.request("GET", "/db/_changes?feed=continuous&since=now&timeout=20")
            #expect(timedOut.status == 200)
            #expect(timedOut.text.contains(#""last_seq""#))
            try await expectReused(connection, harness)
        }
    }

    @Test func anEventsourceFeedKeepsItsConnection() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("a", #"{"v":1}"#)
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            let reply = try await connection.request("GET", "/db/_changes?feed=eventsource&since=0&limit=1")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "text/event-stream")
            #expect(reply.text.hasPrefix("data: {"))
            #expect(reply.text.contains(#""seq":"1""#))
            #expect(reply.text.contains("\nid: \"1\"\n\n"))
            let timedOut = try await connection.request("GET", "/db/_changes?feed=eventsource&since=now&timeout=20")
            #expect(timedOut.status == 200)
            #expect(timedOut.body.isEmpty)
            try await expectReused(connection, harness)
        }
    }

    @Test func errorAnswersKeepTheConnectionOrSayClose() async throws {
        try await ListenerHarness.with(maxRequestBodySize: 1024) { harness async throws in
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            for (method, path, status) in [
                ("GET", "/nope", 404), ("GET", "/db/_changes?since=abc", 400), ("DELETE", "/db/_changes", 405),
                ("GET", "/db/missing", 404),
            ] {
                let reply = try await connection.request(method, path)
                #expect(reply.status == status, "\(method) \(path)")
                #expect(!reply.saysClose)
            }
            // A small body the error was answered without reading is read and dropped.
            let small = try await connection.request("PUT", "/db/_changes", body: Data(repeating: 0x20, count: 500))
            #expect(small.status == 405)
            #expect(!small.saysClose)
            try await expectReused(connection, harness)

            // A body over the limit is not read: the answer says close, and the server closes.
            let large = try KeepAliveConnection(port: harness.listener.port ?? 0)
            try await large.send(Data("PUT /db/big HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n{".utf8))
            let refused = try await large.readReply()
            #expect(refused.status == 413)
            #expect(refused.saysClose)
            #expect(await large.waitForClose())
        }
    }

    @Test func bulkGetAllDocsAndHeadAnswersKeepTheConnection() async throws {
        try await ListenerHarness.with { harness async throws in
            let saved = try harness.save("a", #"{"v":1}"#)
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            let bulk = try await connection.request(
                "POST", "/db/_bulk_get?revs=true", headers: ["Content-Type": "application/json"],
                body: Data(#"{"docs":[{"id":"a","rev":"\#(saved.revisionID ?? "")"}]}"#.utf8))
            #expect(bulk.status == 200)
            #expect(!bulk.saysClose)
            let all = try await connection.request("GET", "/db/_all_docs?include_docs=true")
            #expect(all.status == 200)
            #expect(all.json["rows"]?[0]?["id"] == "a")
            let head = try await connection.request("HEAD", "/db/a")
            #expect(head.status == 200)
            try await expectReused(connection, harness)
        }
    }

    @Test func aClientClosingItsSideEndsItsFeed() async throws {
        try await ListenerHarness.with { harness async throws in
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            try await connection.send(
                Data("GET /db/_changes?feed=longpoll&since=now&timeout=600000 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            try await waitForFeeds(harness)
            connection.shutdown(sendingOnly: true)
            try await eventually(timeout: 60, "the feed ended") { harness.listener.activeFeedCount == 0 }
            try await eventually(timeout: 60, "the connection closed") { harness.listener.openConnectionCount == 0 }
        }
    }
}
