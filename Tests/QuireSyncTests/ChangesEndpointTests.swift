import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

@Suite struct ChangesEndpointTests {
    /// Waits until the listener has `count` feeds waiting, so a change made next
    /// happens after the request reached the server.
    private func waitForFeeds(_ harness: ListenerHarness, count: Int = 1) async throws {
        try await eventually(timeout: 120, "\(count) feed(s) open") { harness.listener.activeFeedCount == count }
    }

    /// The lines of a continuous feed body, blank (heartbeat) lines included.
    private func lines(_ reply: TestHTTPClient.Reply) -> [Substring] {
        reply.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    }

    @Test func normalFeedListsChangesInSequenceOrder() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("a", #"{"v":1}"#)
            let b = try harness.save("b", #"{"v":2}"#)
            try harness.collection.delete(document: b)
            let reply = try await harness.client.get("/db/_changes")
            #expect(reply.status == 200)
            let changes = try ChangesResponse(json: reply.json)
            #expect(changes.results.map(\.id) == ["a", "b"])
            #expect(changes.results.map(\.sequence) == [ChangesSequence(1), ChangesSequence(3)])
            #expect(changes.results[1].isDeleted)
            #expect(changes.lastSequence == ChangesSequence(3))
            #expect(reply.json["last_seq"] == "3")

            let later = try ChangesResponse(json: try await harness.client.get("/db/_changes?since=1").json)
            #expect(later.results.map(\.id) == ["b"])
            let quoted = try ChangesResponse(json: try await harness.client.get("/db/_changes?since=%221%22").json)
            #expect(quoted.results.map(\.id) == ["b"])
            let couch = try ChangesResponse(json: try await harness.client.get("/db/_changes?since=1-g1AAAA").json)
            #expect(couch.results.map(\.id) == ["b"])
            let limited = try ChangesResponse(json: try await harness.client.get("/db/_changes?limit=1").json)
            #expect(limited.results.map(\.id) == ["a"])
            #expect(limited.lastSequence == ChangesSequence(1))
            let now = try ChangesResponse(json: try await harness.client.get("/db/_changes?since=now").json)
            #expect(now.results.isEmpty)
            #expect(now.lastSequence == ChangesSequence(3))
        }
    }

    @Test func allDocsStyleListsEveryLeafAndIncludeDocsAddsBodies() async throws {
        try await ListenerHarness.with { harness async throws in
            for (rev, ancestors) in [("1-a", [String]()), ("2-b", ["1-a"]), ("2-c", ["1-a"])] {
                try harness.collection.insert(
                    ForeignRevision(
                        documentID: "c", revisionID: rev, ancestors: ancestors, isDeleted: false,
                        body: ["rev": .string(rev)]))
            }
            let main = try ChangesResponse(json: try await harness.client.get("/db/_changes").json)
            #expect(main.results.first?.revisionIDs == ["2-c"])
            let all = try ChangesResponse(
                json: try await harness.client.get("/db/_changes?style=all_docs&include_docs=true").json)
            #expect(Set(all.results.first?.revisionIDs ?? []) == ["2-b", "2-c"])
            #expect(all.results.first?.document?["_rev"] == "2-c")
            #expect(all.results.first?.document?["rev"] == "2-c")
            #expect(try await harness.client.get("/db/_changes?style=weird").status == 400)
        }
    }

    @Test func documentIDFilter() async throws {
        try await ListenerHarness.with { harness async throws in
            for id in ["a", "b", "c"] { try harness.save(id, #"{"v":1}"#) }
            let query = try await harness.client.get(#"/db/_changes?filter=_doc_ids&doc_ids=%5B%22a%22,%22c%22%5D"#)
            #expect(try ChangesResponse(json: query.json).results.map(\.id) == ["a", "c"])
            let posted = try await harness.client.post("/db/_changes?filter=_doc_ids", ["doc_ids": ["b"]])
            let changes = try ChangesResponse(json: posted.json)
            #expect(changes.results.map(\.id) == ["b"])
            // Filtered-out changes are not scanned again.
            #expect(changes.lastSequence == ChangesSequence(3))
            #expect(try await harness.client.get("/db/_changes?filter=_doc_ids").status == 400)
            #expect(try await harness.client.post("/db/_changes?filter=_doc_ids", ["doc_ids": "b"]).status == 400)
        }
    }

    @Test func channelFilterReadsTopLevelChannels() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("one", #"{"channels":"news"}"#)
            try harness.save("many", #"{"channels":["sport","weather"]}"#)
            try harness.save("none", #"{"title":"x"}"#)
            try harness.save("nested", #"{"meta":{"channels":["news"]}}"#)
            let dead = try harness.save("dead", #"{"channels":"other"}"#)
            try harness.collection.delete(document: dead)
            let news = try await harness.client.get("/db/_changes?filter=sync_gateway/bychannel&channels=news,weather")
            // Tombstones keep no channels, so they reach every channel feed.
            #expect(try ChangesResponse(json: news.json).results.map(\.id) == ["one", "many", "dead"])
            let posted = try await harness.client.post(
                "/db/_changes", ["filter": "sync_gateway/bychannel", "channels": ["sport"]])
            #expect(try ChangesResponse(json: posted.json).results.map(\.id) == ["many", "dead"])
            let star = try await harness.client.get("/db/_changes?filter=sync_gateway/bychannel&channels=*")
            #expect(try ChangesResponse(json: star.json).results.count == 5)
            #expect(try await harness.client.get("/db/_changes?filter=sync_gateway/bychannel").status == 400)
        }
    }

    @Test func badParametersAre400() async throws {
        try await ListenerHarness.with { harness async throws in
            for query in [
                "since=abc", "since=-1", "limit=x", "feed=sse", "filter=app/by_type", "include_docs=maybe",
                "timeout=soon", "heartbeat=-5",
            ] {
                let reply = try await harness.client.get("/db/_changes?\(query)")
                #expect(reply.status == 400, "\(query)")
                #expect(reply.json["error"] == "bad_request")
            }
            #expect(try await harness.client.send("POST", "/db/_changes", bytes: Data("[".utf8)).status == 400)
            #expect(try await harness.client.post("/db/_changes", [1, 2]).status == 400)
        }
    }

    @Test func longpollWaitsForTheNextChange() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("before", #"{"v":1}"#)
            let client = harness.client
            // The timeout is far beyond the test's length: an answer holding "after" can only
            // come from the save waking the feed, never from the timeout.
            let request = Task {
                try await client.get("/db/_changes?feed=longpoll&since=now&timeout=600000", timeout: 600)
            }
            try await waitForFeeds(harness)
            try harness.save("after", #"{"v":2}"#)
            let reply = try await request.value
            #expect(reply.status == 200)
            let changes = try ChangesResponse(json: reply.json)
            #expect(changes.results.map(\.id) == ["after"])
            #expect(changes.lastSequence == ChangesSequence(2))
        }
    }

    @Test func longpollReturnsAtOnceWhenThereAreChangesAndEmptyAtTheTimeout() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("a", #"{"v":1}"#)
            let ready = try await harness.client.get("/db/_changes?feed=longpoll&since=0&timeout=600000", timeout: 60)
            #expect(try ChangesResponse(json: ready.json).results.map(\.id) == ["a"])
            let started = ContinuousClock.now
            let empty = try await harness.client.get("/db/_changes?feed=longpoll&since=now&timeout=200")
            #expect(ContinuousClock.now - started >= .milliseconds(190))
            let changes = try ChangesResponse(json: empty.json)
            #expect(changes.results.isEmpty)
            #expect(changes.lastSequence == ChangesSequence(1))
            #expect(harness.listener.activeFeedCount == 0)
        }
    }

    @Test func continuousFeedStreamsChangesMadeAfterTheRequest() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("old", #"{"v":0}"#)
            let client = harness.client
            // The feed ends at its limit, after the second change: no clock decides the outcome.
            let request = Task {
                try await client.get("/db/_changes?feed=continuous&since=0&limit=2&timeout=600000", timeout: 600)
            }
            try await waitForFeeds(harness)
            try harness.save("new", #"{"v":1}"#)
            let reply = try await request.value
            #expect(reply.status == 200)
            let parsed = try lines(reply).compactMap { try ChangesResponse.parseContinuousLine($0) }
            guard parsed.count == 3, case .change(let first) = parsed[0], case .change(let second) = parsed[1] else {
                Issue.record("unexpected feed: \(reply.text)")
                return
            }
            #expect(first.id == "old")
            #expect(second.id == "new")
            #expect(parsed[2] == .end(lastSequence: ChangesSequence(2)))
        }
    }

    @Test func continuousFeedSendsHeartbeatsAndEndsAtItsLimit() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = RawHTTPClient(port: try #require(harness.listener.port))
            // Heartbeats are single-newline chunks of the chunked reply; the save waits until
            // two have arrived, so the outcome does not depend on how fast the machine is.
            let heartbeats = HeartbeatCounter()
            let request = Task {
                try await client.send(
                    "GET /db/_changes?feed=continuous&since=now&heartbeat=50&limit=1 HTTP/1.1", timeoutSeconds: 120,
                    onData: { heartbeats.update($0) })
            }
            try await eventually(timeout: 120, "two heartbeats") { heartbeats.count >= 2 }
            try harness.save("late", #"{"v":1}"#)
            let reply = try await request.value
            #expect(reply.status == 200)
            let all = String(decoding: reply.body, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false
            ).dropLast()
            #expect(all.filter(\.isEmpty).count >= 2)
            let parsed = try all.compactMap { try ChangesResponse.parseContinuousLine($0) }
            #expect(parsed.count == 2)
            if case .change(let entry) = parsed.first {
                #expect(entry.id == "late")
            } else {
                Issue.record("no change line")
            }
            #expect(parsed.last == .end(lastSequence: ChangesSequence(1)))
        }
    }

    @Test func stoppingTheListenerEndsContinuousFeeds() async throws {
        let harness = try await ListenerHarness()
        let client = harness.client
        let request = Task { try await client.get("/db/_changes?feed=continuous&heartbeat=100", timeout: 60) }
        try await waitForFeeds(harness)
        let started = ContinuousClock.now
        await harness.listener.stop()
        #expect(ContinuousClock.now - started < .seconds(30))
        let reply = try await request.value
        #expect(reply.text.hasSuffix("{\"last_seq\":\"0\"}\n"))
        await harness.shutdown()
    }

    @Test func aClientGoingAwayEndsItsFeed() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            // The feed's own timeout is far beyond the wait below: only the client going away
            // can end it in time.
            let request = Task { try await client.get("/db/_changes?feed=continuous&timeout=600000", timeout: 600) }
            try await waitForFeeds(harness)
            request.cancel()
            _ = try? await request.value
            try await eventually(timeout: 120, "the feed ended") { harness.listener.activeFeedCount == 0 }
        }
    }
}

/// Counts the heartbeat chunks (`1\r\n\n\r\n`) a streamed reply has sent so far.
private final class HeartbeatCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = 0

    func update(_ received: Data) {
        let marker = Data("\r\n1\r\n\n\r\n".utf8)
        var found = 0
        var rest = received[...]
        while let range = rest.range(of: marker) {
            found += 1
            rest = rest[range.upperBound...]
        }
        lock.withLock { seen = found }
    }

    var count: Int { lock.withLock { seen } }
}

extension ChangesEndpointTests {
    @Test func sinceBeyondSixtyFourBitsAndNonNumericPostedSinceAre400() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("a", #"{"v":1}"#)
            let client = harness.client
            for since in ["18446744073709551615", "9223372036854775808", "99999999999999999999999"] {
                let reply = try await client.get("/db/_changes?since=\(since)")
                #expect(reply.status == 400, "\(since)")
                #expect(reply.json["error"] == "bad_request")
            }
            // The largest local sequence there can be is simply past the end.
            let end = try await client.get("/db/_changes?since=9223372036854775807")
            #expect(end.status == 200)
            #expect(end.json["results"] == [])
            for body: JSONValue in [
                ["since": 1.5], ["since": ["a"]], ["since": .null], ["since": "abc"], ["since": -1], ["limit": 0.5],
            ] {
                let reply = try await client.post("/db/_changes", body)
                #expect(reply.status == 400, "\(body)")
            }
            #expect(try await client.post("/db/_changes", ["since": 0]).json["results"]?.arrayValue?.count == 1)
            #expect(try await client.post("/db/_changes", ["since": "0"]).json["results"]?.arrayValue?.count == 1)
        }
    }

    @Test func descendingGivesTheNewestChangesFirst() async throws {
        try await ListenerHarness.with { harness async throws in
            for id in ["a", "b", "c"] { try harness.save(id, #"{"v":1}"#) }
            let a = try #require(try harness.collection.document(id: "a"))
            try harness.collection.save(document: a.toMutable().setInt(2, forKey: "v"))
            let all = try ChangesResponse(json: try await harness.client.get("/db/_changes?descending=true").json)
            #expect(all.results.map(\.id) == ["a", "c", "b"])
            #expect(all.lastSequence == ChangesSequence(2))
            let last = try ChangesResponse(
                json: try await harness.client.get("/db/_changes?descending=true&limit=1").json)
            #expect(last.results.map(\.id) == ["a"])
            #expect(last.lastSequence == ChangesSequence(4))
            let posted = try ChangesResponse(
                json: try await harness.client.post("/db/_changes", ["descending": true, "limit": 2]).json)
            #expect(posted.results.map(\.id) == ["a", "c"])
            #expect(try await harness.client.get("/db/_changes?descending=true&feed=continuous").status == 400)
            #expect(try await harness.client.get("/db/_changes?descending=maybe").status == 400)
        }
    }

    @Test func heartbeatsShorterThanTheMinimumAreRaisedToIt() throws {
        let options = try ChangesOptions(
            query: try QueryParameters("feed=continuous&heartbeat=1"), body: nil, maxTimeout: .seconds(300))
        #expect(options.heartbeat == ChangesOptions.minimumHeartbeat)
        let longer = try ChangesOptions(
            query: try QueryParameters("feed=continuous&heartbeat=5000"), body: nil, maxTimeout: .seconds(300))
        #expect(longer.heartbeat == .milliseconds(5000))
        let huge = try ChangesOptions(
            query: try QueryParameters("feed=continuous&heartbeat=9223372036854775807&timeout=9223372036854775807"),
            body: nil, maxTimeout: .seconds(300))
        #expect(huge.heartbeat == .seconds(300))
        #expect(huge.timeout == .seconds(300))
    }
}
