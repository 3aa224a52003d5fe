import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// A large document is written within the server's response budget, a piece at a time as the
/// client reads, and a client that never reads holds its room only until the write deadline:
/// clients that ask for large documents and then stop reading cannot pin the server's memory.
@Suite struct ListenerResponseBudgetTests {
    /// The request line and head of `GET path`.
    private func get(_ path: String, port: UInt16) -> Data {
        Data("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
    }

    @Test func aClientThatNeverReadsALargeDocumentHoldsItsRoomOnlyUntilTheWriteDeadline() async throws {
        let size = 32 * 1024 * 1024
        try await ListenerHarness.with(adjust: { config in
            config.maxInFlightBodyBytes = 40 * 1024 * 1024
            // Generous: the second client must be seen waiting before the first is cut off.
            config.responseWriteTimeout = .seconds(12)
        }) { harness async throws in
            _ = try harness.save("big", #"{"pad":"\#(String(repeating: "x", count: size))"}"#)
            _ = try harness.save("small", #"{"a":1}"#)
            let port = harness.listener.port ?? 0
            let budget = try #require(harness.listener.responseBudget)
            // A small receive window: loopback buffers would otherwise absorb about 10 MB.
            let stalled = try KeepAliveConnection(port: port, timeoutSeconds: 60, receiveBufferSize: 4096)
            let second = try KeepAliveConnection(port: port, timeoutSeconds: 60, receiveBufferSize: 4096)
            try await stalled.send(get("/db/big", port: port))
            try await second.send(get("/db/big", port: port))
            // One holds its room; the other waits for room rather than rendering another copy.
            try await eventually(timeout: 60, "one large document holding its room, the other waiting") {
                budget.inUse >= size && budget.waiting == 1
            }
            #expect(budget.inUse <= budget.total)
            // Small documents are still answered meanwhile.
            let reader = try KeepAliveConnection(port: port, timeoutSeconds: 60)
            let reply = try await reader.request("GET", "/db/small")
            #expect(reply.status == 200)
            #expect(reply.json["a"] == 1)
            // The socket stays full: past the write deadline the connection closes and the
            // room is given back (the second request's too, answered or cut off alike).
            try await eventually(timeout: 120, "the budget given back") { budget.inUse == 0 && budget.waiting == 0 }
            #expect(budget.peak <= budget.total)
            // The server closed the stalled connection itself (the one it wrote to; the other
            // may have been answered 503 and kept): once the client closes the others, none is
            // open. (Reading what the kernel still holds through a 4 KiB window would take long.)
            reader.shutdown()
            try await eventually(timeout: 60, "a stalled connection closed by the server") {
                harness.listener.openConnectionCount <= 1
            }
            stalled.shutdown()
            second.shutdown()
            try await eventually(timeout: 60, "every connection closed") { harness.listener.openConnectionCount == 0 }
        }
    }

    @Test func aLargeDocumentReadByItsClientArrivesWholeAndGivesItsRoomBack() async throws {
        let size = 3 * 1024 * 1024
        try await ListenerHarness.with { harness async throws in
            _ = try harness.save("big", #"{"pad":"\#(String(repeating: "y", count: size))"}"#)
            let port = harness.listener.port ?? 0
            let budget = try #require(harness.listener.responseBudget)
            let connection = try KeepAliveConnection(port: port, timeoutSeconds: 60)
            let reply = try await connection.request("GET", "/db/big?revs=true")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Length") == String(reply.body.count))
            #expect(reply.json["pad"]?.stringValue?.count == size)
            #expect(reply.json["_revisions"] != nil)
            #expect(budget.peak >= size)
            try await eventually(timeout: 60, "the budget given back") { budget.inUse == 0 }
            // The connection stays usable.
            let again = try await connection.request("HEAD", "/db/big")
            #expect(again.status == 200)
            try await eventually(timeout: 60, "the budget given back after HEAD") { budget.inUse == 0 }
        }
    }

    @Test func aLargeDocumentThatFindsNoRoomInTimeIsAnswered503WithRetryAfter() async throws {
        let size = 2 * 1024 * 1024
        try await ListenerHarness.with(adjust: { config in
            config.maxRequestBodySize = 1024 * 1024
            config.maxInFlightBodyBytes = 3 * 1024 * 1024
            config.responseWriteTimeout = .seconds(5)
        }) { harness async throws in
            _ = try harness.save("big", #"{"pad":"\#(String(repeating: "z", count: size))"}"#)
            let port = harness.listener.port ?? 0
            let budget = try #require(harness.listener.responseBudget)
            // Room held elsewhere, as by a client that does not read.
            let held = try await budget.reserve(budget.total)
            defer { budget.release(held) }
            let connection = try KeepAliveConnection(port: port, timeoutSeconds: 60)
            let reply = try await connection.request("GET", "/db/big")
            #expect(reply.status == 503)
            #expect(reply.header("Retry-After") == "5")
            #expect(reply.json["error"] == "unavailable")
        }
    }
}
