import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// A web page of another site cannot write through a visitor's browser: non-JSON bodies on
/// JSON endpoints are 415 (a `text/plain` POST needs no preflight), foreign origins are 403,
/// and without authentication a `Host` that is not the server's (DNS rebinding) is 400.
@Suite struct WebRequestPolicyTests {
    private func send(
        _ raw: RawHTTPClient, _ line: String, headers: [String] = [], body: String = #"{"docs":[{"_id":"x"}]}"#
    ) async throws -> RawHTTPClient.Reply {
        let head = ([line] + headers + ["Content-Length: \(body.utf8.count)"]).joined(separator: "\r\n")
        return try await raw.send(head, body: Data(body.utf8))
    }

    @Test func jsonEndpointsRefuseOtherContentTypes() async throws {
        try await ListenerHarness.with { harness async throws in
            let raw = RawHTTPClient(port: try #require(harness.listener.port))
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                let refused = try await send(raw, "POST /db/_bulk_docs HTTP/1.1", headers: ["Content-Type: \(type)"])
                #expect(refused.status == 415, "\(type)")
                #expect(refused.json["error"] == "bad_content_type")
                let put = try await send(raw, "PUT /db/doc HTTP/1.1", headers: ["Content-Type: \(type)"], body: "{}")
                #expect(put.status == 415)
            }
            #expect(harness.collection.count == 0)
            let json = try await send(
                raw, "POST /db/_bulk_docs HTTP/1.1", headers: ["Content-Type: application/json; charset=utf-8"])
            #expect(json.status == 201)
            // No Content-Type at all (curl --data-binary @file with -H removed) is read as JSON.
            #expect(try await send(raw, "PUT /db/bare HTTP/1.1", body: "{}").status == 201)
            #expect(harness.collection.count == 2)
        }
    }

    @Test func foreignOriginsAreRefusedAndTheServersOwnIsNot() async throws {
        try await ListenerHarness.with { harness async throws in
            let port = try #require(harness.listener.port)
            let raw = RawHTTPClient(port: port)
            let json = "Content-Type: application/json"
            let foreign = try await send(
                raw, "POST /db/_bulk_docs HTTP/1.1", headers: [json, "Origin: https://evil.example.com"])
            #expect(foreign.status == 403)
            #expect(try await raw.send("GET /db HTTP/1.1\r\nOrigin: null").status == 403)
            #expect(harness.collection.count == 0)
            let own = try await send(
                raw, "POST /db/_bulk_docs HTTP/1.1", headers: [json, "Origin: http://127.0.0.1:\(port)"])
            #expect(own.status == 201)
        }
        try await ListenerHarness.with(adjust: { $0.corsOrigins = ["https://app.example.com"] }) {
            harness async throws in
            let raw = RawHTTPClient(port: try #require(harness.listener.port))
            #expect(try await raw.send("GET /db HTTP/1.1\r\nOrigin: https://app.example.com").status == 200)
            #expect(try await raw.send("GET /db HTTP/1.1\r\nOrigin: https://evil.example.com").status == 403)
        }
    }

    @Test func withoutAuthenticationOnlyTheServersOwnNamesAreServed() async throws {
        try await ListenerHarness.with { harness async throws in
            let policy = WebRequestPolicy(
                configuration: harness.listener.config, cors: CORSPolicy(origins: []), scheme: "http")
            for host in [
                "127.0.0.1:4984", "localhost:4984", "LOCALHOST", "[::1]:4984", "10.1.2.3", "app.localhost", "nas:4984",
            ] {
                #expect(policy.isServedHost(host), "\(host)")
            }
            for host in ["evil.example.com", "evil.example.com:4984", "127.0.0.1.evil.com", "[nonsense]", "a:b"] {
                #expect(!policy.isServedHost(host), "\(host)")
            }
            // Over the wire: a rebound name is refused before anything is read or written.
            let raw = RawHTTPClient(port: try #require(harness.listener.port))
            let rebound = try await raw.send("GET /db HTTP/1.1\r\nHost: evil.example.com")
            #expect(rebound.status == 400)
            #expect(rebound.json["reason"]?.stringValue?.contains("evil.example.com") == true)
            #expect(try await raw.send("GET /db HTTP/1.1\r\nHost: localhost").status == 200)
        }
        let authenticator = ListenerPasswordAuthenticator { _, _ in true }
        try await ListenerHarness.with(authenticator: authenticator) { harness async throws in
            let policy = WebRequestPolicy(
                configuration: harness.listener.config, cors: CORSPolicy(origins: []), scheme: "http")
            #expect(policy.checksHost == false)
        }
    }
}
