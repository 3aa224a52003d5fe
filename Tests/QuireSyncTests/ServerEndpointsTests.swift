import Foundation
import Testing

@testable import QuireListener
@testable import QuireSync

/// The server-wide endpoints a CouchDB client asks before anything else.
@Suite struct ServerEndpointsTests {
    /// CouchDB's `GET /_up` answers `{"status":"ok"}` without credentials (couchdb3's `up()`
    /// asks it before logging in), while every database still needs them.
    @Test func upAnswersWithoutCredentials() async throws {
        let authenticator = ListenerPasswordAuthenticator { $0 == "ada" && $1 == "s3cret" }
        try await ListenerHarness.with(authenticator: authenticator) { harness async throws in
            let raw = RawHTTPClient(port: try #require(harness.listener.port))
            let up = try await raw.send("GET /_up HTTP/1.1")
            #expect(up.status == 200)
            #expect(up.json == ["status": "ok"])
            #expect(try await raw.send("HEAD /_up HTTP/1.1").status == 200)
            #expect(try await raw.send("GET /db HTTP/1.1").status == 401)
            #expect(try await raw.send("GET /_down HTTP/1.1").status == 401)
        }
    }
}
