import Foundation
import Quire
import Testing

@testable import QuireSync

/// Requests NIO's HTTP decoder refuses before any Quire handler runs, and `CONNECT`: each
/// gets a complete response with CouchDB's error body, the server closes the connection
/// (though the client asked to keep it), and a new connection is served as usual.
@Suite struct ParserRefusalHandlerTests {
    @Test func anUnknownMethodIs405() async throws {
        let reply = try await refusal(of: "FROB /db HTTP/1.1\r\nHost: x\r\n\r\n", status: 405)
        #expect(reply.json["error"] == "method_not_allowed")
        #expect(reply.json["reason"]?.stringValue?.contains("FROB") == true)
        #expect(reply.header("Allow")?.contains("GET") == true)
    }

    @Test func connectIs405AndTheConnectionCloses() async throws {
        let reply = try await refusal(
            of: "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", status: 405)
        #expect(reply.json["error"] == "method_not_allowed")
        #expect(reply.json["reason"]?.stringValue?.contains("CONNECT") == true)
    }

    @Test func aRequestLineOver80KiBIs414() async throws {
        let path = "/db/" + String(repeating: "a", count: 100_000)
        let reply = try await refusal(of: "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n", status: 414)
        #expect(reply.json["error"] == "bad_request")
        #expect(reply.json["reason"]?.stringValue?.hasPrefix("Request line too long") == true)
    }

    @Test func headersOver80KiBAre431() async throws {
        let headers = (0..<100).map { "X-Pad-\($0): " + String(repeating: "h", count: 1000) + "\r\n" }.joined()
        let reply = try await refusal(of: "GET /db HTTP/1.1\r\nHost: x\r\n\(headers)\r\n", status: 431)
        #expect(reply.json["error"] == "bad_request")
        #expect(reply.json["reason"]?.stringValue?.hasPrefix("Request headers too large") == true)
    }

    @Test func bytesThatAreNotHTTPAre400() async throws {
        // The start of a TLS client hello, sent to a plain HTTP port.
        let hello = String(decoding: [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03], as: UTF8.self)
        let reply = try await refusal(of: hello + "\r\n\r\n", status: 400)
        #expect(reply.json["error"] == "bad_request")
        #expect(reply.json["reason"]?.stringValue?.hasPrefix("Malformed request line") == true)
    }

    @Test func aBrokenHeaderLineIs400() async throws {
        let reply = try await refusal(of: "GET /db HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n", status: 400)
        #expect(reply.json["error"] == "bad_request")
        #expect(reply.json["reason"]?.stringValue?.hasPrefix("Malformed header line") == true)
    }

    @Test func aBadVersionIs400() async throws {
        let reply = try await refusal(of: "GET /db HTTP/7.2\r\nHost: x\r\n\r\n", status: 400)
        #expect(reply.json["error"] == "bad_request")
    }

    @Test func aRefusalAfterAGoodRequestOnTheSameConnection() async throws {
        try await ListenerHarness.with { harness async throws in
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            let first = try await connection.request("GET", "/db")
            #expect(first.status == 200)
            #expect(!first.saysClose)
            try await connection.send(Data("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8))
            let refused = try await connection.readReply()
            #expect(refused.status == 405)
            #expect(refused.json["error"] == "method_not_allowed")
            #expect(refused.saysClose)
            #expect(await connection.waitForClose())
            #expect(try await harness.client.get("/db").status == 200)
        }
    }

    @Test func aPipelinedUnknownMethodAfterABodyIs405() async throws {
        // Both requests in one write: the first one's body is passed on by its length, so the
        // second request line is watched too and its unknown method is named (it used to be
        // passed on with the body and called bytes that are not HTTP, 400).
        let body = #"{"n":1}"#
        try await ListenerHarness.with { harness async throws in
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            try await connection.send(
                Data(
                    ("PUT /db/pipelined HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
                        + "FROB /db HTTP/1.1\r\nHost: x\r\n\r\n").utf8))
            let saved = try await connection.readReply()
            #expect(saved.status == 201)
            let refused = try await connection.readReply()
            #expect(refused.status == 405)
            #expect(refused.json["reason"]?.stringValue?.contains("FROB") == true)
            #expect(refused.saysClose)
            #expect(await connection.waitForClose())
        }
    }

    /// Sends `bytes` on a connection of its own, expects a complete `status` reply with a
    /// CouchDB error body and `Connection: close`, the connection closed by the server, and
    /// a request on a new connection answered.
    private func refusal(of bytes: String, status: Int) async throws -> KeepAliveConnection.Reply {
        try await ListenerHarness.with { harness async throws in
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            try await connection.send(Data(bytes.utf8))
            let reply = try await connection.readReply()
            #expect(reply.status == status)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.json["reason"]?.stringValue?.isEmpty == false)
            #expect(reply.saysClose)
            #expect(await connection.waitForClose())
            let next = try KeepAliveConnection(port: harness.listener.port ?? 0)
            #expect(try await next.request("GET", "/db").status == 200)
            return reply
        }
    }
}
