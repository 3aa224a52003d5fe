import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// CouchDB's `_session`: cookie logins beside Basic credentials (couchdb3 logs in with a
/// cookie by default and got 404).
@Suite struct SessionEndpointTests {
    private let authenticator = ListenerPasswordAuthenticator { $0 == "ada" && $1 == "s3cret" }

    private func post(_ raw: RawHTTPClient, type: String, _ body: String) async throws -> RawHTTPClient.Reply {
        try await raw.send(
            "POST /_session HTTP/1.1\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)",
            body: Data(body.utf8))
    }

    @Test func aCookieLoginStandsInForBasicUntilLogout() async throws {
        try await ListenerHarness.with(authenticator: authenticator) { harness async throws in
            let raw = RawHTTPClient(port: try #require(harness.listener.port))
            let wrong = try await post(raw, type: "application/x-www-form-urlencoded", "name=ada&password=nope")
            #expect(wrong.status == 401)
            #expect(wrong.json["error"] == "unauthorized")
            #expect(wrong.header("WWW-Authenticate") == nil)

            let form = try await post(raw, type: "application/x-www-form-urlencoded", "name=ada&password=s3cret")
            #expect(form.status == 200)
            #expect(form.json == ["ok": true, "name": "ada", "roles": []])
            let setCookie = try #require(form.header("Set-Cookie"))
            #expect(setCookie.contains("HttpOnly"))
            #expect(setCookie.hasPrefix("AuthSession="))
            let cookie = String(setCookie.split(separator: ";")[0])

            let json = try await post(raw, type: "application/json", #"{"name":"ada","password":"s3cret"}"#)
            #expect(json.status == 200)
            #expect(json.header("Set-Cookie")?.hasPrefix("AuthSession=") == true)
            // IBM's Cloudant SDK names the user `username`, which CouchDB also reads.
            let cloudant = try await post(raw, type: "application/json", #"{"username":"ada","password":"s3cret"}"#)
            #expect(cloudant.status == 200 && cloudant.json["name"] == "ada")

            #expect(try await raw.send("GET /db HTTP/1.1").status == 401)
            #expect(try await raw.send("GET /db HTTP/1.1\r\nCookie: other=1; \(cookie)").status == 200)
            #expect(try await raw.send("GET /db HTTP/1.1\r\nCookie: AuthSession=forged").status == 401)
            let basic = Data("ada:s3cret".utf8).base64EncodedString()
            #expect(try await raw.send("GET /db HTTP/1.1\r\nAuthorization: Basic \(basic)").status == 200)

            let byCookie = try await raw.send("GET /_session HTTP/1.1\r\nCookie: \(cookie)")
            #expect(byCookie.json["userCtx"] == ["name": "ada", "roles": []])
            #expect(byCookie.json["info"]?["authenticated"] == "cookie")
            let byBasic = try await raw.send("GET /_session HTTP/1.1\r\nAuthorization: Basic \(basic)")
            #expect(byBasic.json["userCtx"]?["name"] == "ada")
            #expect(byBasic.json["info"]?["authenticated"] == "default")
            let anonymous = try await raw.send("GET /_session HTTP/1.1")
            #expect(anonymous.status == 200)
            #expect(anonymous.json["userCtx"] == ["name": .null, "roles": []])

            let out = try await raw.send("DELETE /_session HTTP/1.1\r\nCookie: \(cookie)")
            #expect(out.status == 200)
            #expect(out.header("Set-Cookie")?.contains("Max-Age=0") == true)
            #expect(try await raw.send("GET /db HTTP/1.1\r\nCookie: \(cookie)").status == 401)

            #expect(try await post(raw, type: "text/plain", "name=ada&password=s3cret").status == 415)
            #expect(try await post(raw, type: "application/json", #"{"name":"ada"}"#).status == 400)
            #expect(try await raw.send("PUT /_session HTTP/1.1\r\nContent-Length: 0").status == 405)
        }
    }

    @Test func withoutAnAuthenticatorEveryLoginSucceeds() async throws {
        try await ListenerHarness.with { harness async throws in
            let raw = RawHTTPClient(port: try #require(harness.listener.port))
            let login = try await post(raw, type: "application/json", #"{"name":"anyone","password":"x"}"#)
            #expect(login.status == 200)
            #expect(login.json["roles"] == ["_admin"])
            #expect(try await raw.send("GET /_session HTTP/1.1").json["userCtx"]?["roles"] == ["_admin"])
        }
    }
}
