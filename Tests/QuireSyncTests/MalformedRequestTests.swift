import Foundation
import Quire
import Testing

@testable import QuireSync

/// Requests no well-behaved client sends, written byte by byte: each gets a 4xx and writes
/// nothing, and the listener keeps serving.
@Suite struct MalformedRequestTests {
    @Test func aDeclaredLengthOverTheLimitIs413BeforeReading() async throws {
        try await ListenerHarness.with(maxRequestBodySize: 1024) { harness async throws in
            let raw = RawHTTPClient(port: harness.listener.port ?? 0)
            let reply = try await raw.send(
                "POST /db/_bulk_docs HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 50000000")
            #expect(reply.status == 413)
            #expect(reply.json["error"] == "too_large")
            #expect(harness.collection.count == 0)
        }
    }

    @Test func anOversizedChunkedBodyIs413() async throws {
        try await ListenerHarness.with(maxRequestBodySize: 1024) { harness async throws in
            let raw = RawHTTPClient(port: harness.listener.port ?? 0)
            let payload = #"{"docs":[{"_id":"x","pad":""# + String(repeating: "p", count: 3000) + #""}]}"#
            var body = Data()
            for chunk in stride(from: 0, to: payload.utf8.count, by: 500) {
                let part = Array(payload.utf8)[chunk..<min(chunk + 500, payload.utf8.count)]
                body.append(Data((String(part.count, radix: 16) + "\r\n").utf8))
                body.append(contentsOf: part)
                body.append(Data("\r\n".utf8))
            }
            body.append(Data("0\r\n\r\n".utf8))
            let reply = try await raw.send("POST /db/_bulk_docs HTTP/1.1\r\nTransfer-Encoding: chunked", body: body)
            #expect(reply.status == 413)
            #expect(harness.collection.count == 0)
        }
    }

    @Test func brokenChunkedFramingIsAClientError() async throws {
        try await ListenerHarness.with { harness async throws in
            let raw = RawHTTPClient(port: harness.listener.port ?? 0)
            let body = Data("ZZ\r\n{\"docs\":[]}\r\n0\r\n\r\n".utf8)
            let reply = try await raw.send("POST /db/_bulk_docs HTTP/1.1\r\nTransfer-Encoding: chunked", body: body)
            #expect((400..<500).contains(reply.status))
            #expect(harness.collection.count == 0)
            #expect(try await harness.client.get("/").status == 200)
        }
    }

    @Test func aTruncatedJSONBodyIs400() async throws {
        try await ListenerHarness.with { harness async throws in
            let raw = RawHTTPClient(port: harness.listener.port ?? 0)
            let body = Data(#"{"docs":[{"_id":"a"}"#.utf8)
            let reply = try await raw.send("POST /db/_bulk_docs HTTP/1.1\r\nContent-Length: \(body.count)", body: body)
            #expect(reply.status == 400)
            #expect(reply.json["reason"]?.stringValue?.contains("at byte \(body.count)") == true)
            #expect(harness.collection.count == 0)
        }
    }

    @Test func badPercentEscapesAre400() async throws {
        try await ListenerHarness.with { harness async throws in
            let raw = RawHTTPClient(port: harness.listener.port ?? 0)
            #expect(try await raw.send("GET /db/%ZZ HTTP/1.1").status == 400)
            #expect(try await raw.send("GET /db/_changes?since=%ZZ HTTP/1.1").status == 400)
        }
    }

    @Test func deeplyNestedJSONIs400() async throws {
        try await ListenerHarness.with { harness async throws in
            let body = Data((String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)).utf8)
            let reply = try await harness.client.send("PUT", "/db/deep", bytes: body)
            #expect(reply.status == 400)
            #expect(harness.collection.count == 0)
        }
    }
}
