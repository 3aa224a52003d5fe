import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// The access log: one Common Log Format line per request, written once the answer is sent,
/// with the client, the user, the request line, the status and the bytes sent.
@Suite struct ListenerAccessLogTests {
    private final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func append(_ line: String) { lock.withLock { stored.append(line) } }
        var all: [String] { lock.withLock { stored } }
    }

    @Test func everyRequestIsOneLine() async throws {
        let lines = Lines()
        let log = ListenerAccessLog { lines.append($0) }
        let authenticator = ListenerPasswordAuthenticator { $0 == "sync" && $1 == "s3cret" }
        try await ListenerHarness.with(authenticator: authenticator, adjust: { $0.accessLog = log }) {
            harness async throws in
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0)
            let basic = "Basic " + Data("sync:s3cret".utf8).base64EncodedString()
            let welcome = try await connection.request("GET", "/db?x=%22y%22", headers: ["Authorization": basic])
            _ = try await connection.request("GET", "/db/missing", headers: ["Authorization": basic])
            _ = try await connection.request("GET", "/db", headers: ["Authorization": "Basic bm86bm8="])
            let feed = try await connection.request(
                "GET", "/db/_changes?feed=continuous&since=0&timeout=10", headers: ["Authorization": basic])
            try await eventually(timeout: 30, "four lines") { lines.all.count == 4 }
            let all = lines.all
            let pattern =
                #/^127\.0\.0\.1 - (\S+) \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d \+0000\] "([A-Z]+) (\S+) HTTP/1\.1" (\d{3}) (\d+|-)\n$/#
            let parsed = try all.map { line -> (user: String, target: String, status: String, bytes: String) in
                let match = try #require(line.wholeMatch(of: pattern), "\(line)")
                return (String(match.1), String(match.3), String(match.4), String(match.5))
            }
            #expect(parsed.map(\.user) == ["sync", "sync", "-", "sync"])
            #expect(
                parsed.map(\.target) == [
                    "/db?x=%22y%22", "/db/missing", "/db", "/db/_changes?feed=continuous&since=0&timeout=10",
                ])
            #expect(parsed.map(\.status) == ["200", "404", "401", "200"])
            #expect(parsed[0].bytes == String(welcome.body.count))
            #expect(parsed[3].bytes == String(feed.body.count))
        }
    }

    @Test func hostileValuesStayOnOneLine() {
        let line = ListenerAccessLog.line(
            client: nil, user: "a b\"\n\\", time: Date(timeIntervalSince1970: 0), method: "GET", target: "/x\"\r\n",
            status: 200, bytes: 0)
        #expect(
            line == #"- - a\x20b\x22\x0A\x5C [01/Jan/1970:00:00:00 +0000] "GET /x\x22\x0D\x0A HTTP/1.1" 200 -"# + "\n")
    }
}
