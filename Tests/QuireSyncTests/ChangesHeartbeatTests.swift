import Foundation
import Quire
import Testing

@testable import QuireSync

/// A continuous or eventsource feed with a heartbeat sends each change once: the heartbeats
/// between changes resend nothing (aiocouch and couchdb3 saw 40 events for 12 changes).
@Suite struct ChangesHeartbeatTests {
    @Test(arguments: ["continuous", "eventsource"])
    func heartbeatsDoNotResendEarlierChanges(feed: String) async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("early", #"{"v":1}"#)
            let client = RawHTTPClient(port: try #require(harness.listener.port))
            let beat = feed == "eventsource" ? "event: heartbeat" : "\r\n1\r\n\n\r\n"
            let received = Received()
            let request = Task {
                try await client.send(
                    "GET /db/_changes?feed=\(feed)&since=0&heartbeat=50&limit=2 HTTP/1.1", timeoutSeconds: 120,
                    onData: { received.update($0) })
            }
            // Three heartbeats after the first change, then a second change ends the feed
            // (limit=2): what came between the two is only heartbeats.
            try await eventually(timeout: 120, "three heartbeats") { received.count(of: beat) >= 3 }
            try harness.save("late", #"{"v":2}"#)
            let reply = try await request.value
            #expect(reply.status == 200)
            let text = String(decoding: reply.body, as: UTF8.self)
            let ids = text.split(separator: "\n").compactMap { line -> String? in
                let json = line.hasPrefix("data: ") ? line.dropFirst(6) : line
                return (try? JSONReader.parse(String(json)))?["id"]?.stringValue
            }
            #expect(ids == ["early", "late"])
        }
    }
}

/// Everything a streamed reply has sent so far.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func update(_ received: Data) { lock.withLock { data = received } }

    /// How many times `marker` occurs in what was received.
    func count(of marker: String) -> Int {
        let needle = Data(marker.utf8)
        return lock.withLock {
            var found = 0
            var rest = data[...]
            while let range = rest.range(of: needle) {
                found += 1
                rest = rest[range.upperBound...]
            }
            return found
        }
    }
}
