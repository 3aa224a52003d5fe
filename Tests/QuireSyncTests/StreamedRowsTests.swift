import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// `_all_docs` and `_bulk_get` are written a batch of rows at a time within the server's
/// response budget, so a small request naming a large document many times cannot make the
/// server build its whole answer in memory.
@Suite struct StreamedRowsTests {
    /// A document of about `size` bytes.
    private func bigDocument(size: Int) -> String {
        #"{"pad":"\#(String(repeating: "x", count: size))"}"#
    }

    @Test func allDocsWithARepeatedLargeKeyIsStreamedWithinOneBatchAndRow() async throws {
        try await ListenerHarness.with { harness async throws in
            let size = 1024 * 1024
            _ = try harness.save("big", bigDocument(size: size))
            let keys = JSONValue.array(Array(repeating: .string("big"), count: 40) + [.string("missing")])
            let body = Data(try WireJSON.bytes(["keys": keys]))
            let reply = try await RawHTTPClient(port: harness.listener.port ?? 0).send(
                "POST /db/_all_docs?include_docs=true HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)",
                body: body)
            #expect(reply.status == 200)
            // Streamed: no length known in advance.
            #expect(reply.header("transfer-encoding")?.lowercased() == "chunked")
            let rows = reply.json["rows"]?.arrayValue ?? []
            #expect(rows.count == 41)
            #expect(rows.first?["doc"]?["pad"]?.stringValue?.count == size)
            #expect(rows.last == ["key": "missing", "error": "not_found"])
            #expect(reply.json["total_rows"] == 1)
            // The 40 MB answer never held more than a row and a batch at once.
            let peak = harness.listener.responseBudget?.peak ?? .max
            #expect(peak > 0)
            #expect(peak <= size + 2 * StreamedRows.batchBytes)
            #expect(harness.listener.responseBudget?.inUse == 0)
        }
    }

    @Test func bulkGetWithARepeatedLargeAttachmentIsStreamed() async throws {
        try await ListenerHarness.with { harness async throws in
            let size = 512 * 1024
            let document = MutableDocument(id: "a")
            document.setValue(Blob(contentType: "application/octet-stream", data: Data(count: size)), forKey: "file")
            try harness.collection.save(document: document)
            let items = JSONValue.array(Array(repeating: ["id": "a"], count: 30))
            let body = Data(try WireJSON.bytes(["docs": items]))
            let reply = try await RawHTTPClient(port: harness.listener.port ?? 0).send(
                "POST /db/_bulk_get?attachments=true HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)",
                body: body)
            #expect(reply.status == 200)
            #expect(reply.header("transfer-encoding")?.lowercased() == "chunked")
            let results = reply.json["results"]?.arrayValue ?? []
            #expect(results.count == 30)
            let attachments = results.last?["docs"]?[0]?["ok"]?["_attachments"]
            #expect(
                attachments?.objectValue?.values.first?["data"]?.stringValue != nil,
                "\(String(describing: attachments))")
            let peak = harness.listener.responseBudget?.peak ?? .max
            // A row is the attachment in base64 (4/3 of its size) and a little more.
            #expect(peak <= 2 * size + 2 * StreamedRows.batchBytes)
        }
    }

    @Test func aClientThatDoesNotReadHoldsOneBatchNotItsWholeAnswer() async throws {
        try await ListenerHarness.with { harness async throws in
            let size = 1024 * 1024
            _ = try harness.save("big", bigDocument(size: size))
            let keys = JSONValue.array(Array(repeating: .string("big"), count: 100))
            let body = Data(try WireJSON.bytes(["keys": keys]))
            let port = harness.listener.port ?? 0
            let connection = try KeepAliveConnection(port: port)
            try await connection.send(
                Data(
                    "POST /db/_all_docs?include_docs=true HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
                        .utf8) + body)
            // The server writes until the socket is full, then its write waits for the client,
            // holding its batch in the budget; the 100 MB answer is never rendered whole.
            let budget = try #require(harness.listener.responseBudget)
            try await eventually(timeout: 60, "a write waiting for the client") { budget.inUse > 0 }
            try await Task.sleep(for: .milliseconds(300))
            #expect(budget.inUse > 0)
            #expect(budget.peak <= size + 2 * StreamedRows.batchBytes)
            // Once the client reads, the rest follows.
            let reply = try await connection.readReply(method: "POST")
            #expect(reply.status == 200)
            #expect(reply.json["rows"]?.arrayValue?.count == 100)
            try await eventually(timeout: 60, "the budget released") { budget.inUse == 0 }
        }
    }

    /// A client that leaves while its answer is streamed gives back every byte the answer
    /// held, once: a batch whose write failed was given back twice, which left the budget
    /// 262,144 bytes below zero (seen in a ThreadSanitizer run) and let later answers past it.
    @Test func aClientThatLeavesMidAnswerLeavesTheBudgetAtZero() async throws {
        try await ListenerHarness.with { harness async throws in
            _ = try harness.save("big", bigDocument(size: 1024 * 1024))
            let keys = JSONValue.array(Array(repeating: .string("big"), count: 100))
            let body = Data(try WireJSON.bytes(["keys": keys]))
            let port = harness.listener.port ?? 0
            var connection: KeepAliveConnection? = try KeepAliveConnection(port: port)
            try await connection?.send(
                Data(
                    "POST /db/_all_docs?include_docs=true HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
                        .utf8) + body)
            let budget = try #require(harness.listener.responseBudget)
            try await eventually(timeout: 60, "a write waiting for the client") { budget.inUse > 0 }
            // Closed with the answer unread: the server's waiting write fails.
            connection = nil
            try await eventually(timeout: 60, "the budget released") { budget.inUse <= 0 }
            try await Task.sleep(for: .milliseconds(300))
            #expect(budget.inUse == 0)
        }
    }
}
