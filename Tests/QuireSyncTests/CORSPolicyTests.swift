import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// CORS through a listener: preflights and the headers of ordinary answers, for a named
/// origin (with credentials), for `*` (without), and none for other origins.
@Suite struct CORSPolicyTests {
    private let preflightHeaders = [
        "Origin": "https://app.example.com", "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "authorization, content-type",
    ]

    @Test func aNamedOriginGetsPreflightsAndCredentials() async throws {
        let authenticator = ListenerPasswordAuthenticator { $0 == "sync" && $1 == "s3cret" }
        try await ListenerHarness.with(
            authenticator: authenticator, adjust: { $0.corsOrigins = ["https://app.example.com"] }
        ) { harness async throws in
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            // The preflight carries no credentials and is answered before authentication.
            let preflight = try await connection.request("OPTIONS", "/db/doc", headers: preflightHeaders)
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "https://app.example.com")
            #expect(preflight.header("Access-Control-Allow-Credentials") == "true")
            #expect(preflight.header("Access-Control-Allow-Methods")?.contains("PUT") == true)
            #expect(preflight.header("Access-Control-Allow-Headers") == "authorization, content-type")
            #expect(preflight.header("Vary") == "Origin")
            // The request itself, with credentials, gets the headers too; so does a 401.
            let basic = "Basic " + Data("sync:s3cret".utf8).base64EncodedString()
            let put = try await connection.request(
                "PUT", "/db/doc", headers: ["Origin": "https://app.example.com", "Authorization": basic],
                body: Data(#"{"v":1}"#.utf8))
            #expect(put.status == 201)
            #expect(put.header("Access-Control-Allow-Origin") == "https://app.example.com")
            #expect(put.header("Access-Control-Allow-Credentials") == "true")
            #expect(put.header("Access-Control-Expose-Headers")?.contains("ETag") == true)
            let refused = try await connection.request("GET", "/db", headers: ["Origin": "https://app.example.com"])
            #expect(refused.status == 401)
            #expect(refused.header("Access-Control-Allow-Origin") == "https://app.example.com")
            // Another origin: its preflight is refused, and so are its requests.
            var other = preflightHeaders
            other["Origin"] = "https://evil.example.com"
            let otherPreflight = try await connection.request("OPTIONS", "/db/doc", headers: other)
            #expect(otherPreflight.status == 403)
            #expect(otherPreflight.header("Access-Control-Allow-Origin") == nil)
            let otherGet = try await connection.request(
                "GET", "/db", headers: ["Origin": "https://evil.example.com", "Authorization": basic])
            #expect(otherGet.status == 403)
            #expect(otherGet.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func anyOriginIsAllowedWithoutCredentials() async throws {
        try await ListenerHarness.with(adjust: { $0.corsOrigins = ["*"] }) { harness async throws in
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            let preflight = try await connection.request("OPTIONS", "/db/_bulk_docs", headers: preflightHeaders)
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "*")
            #expect(preflight.header("Access-Control-Allow-Credentials") == nil)
            let get = try await connection.request("GET", "/db", headers: ["Origin": "http://localhost:8080"])
            #expect(get.header("Access-Control-Allow-Origin") == "*")
            #expect(get.header("Access-Control-Allow-Credentials") == nil)
        }
    }

    @Test func withoutOriginsThereIsNoCORS() async throws {
        try await ListenerHarness.with { harness async throws in
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            let preflight = try await connection.request("OPTIONS", "/db/doc", headers: preflightHeaders)
            #expect(preflight.status == 403)
            #expect(preflight.header("Access-Control-Allow-Origin") == nil)
        }
    }
}
