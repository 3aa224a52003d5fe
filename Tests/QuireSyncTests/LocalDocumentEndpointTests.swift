import Foundation
import Quire
import Testing

@testable import QuireSync

@Suite struct LocalDocumentEndpointTests {
    @Test func checkpointsAreStoredWithLocalRevisions() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            let missing = try await client.get("/db/_local/rep1")
            #expect(missing.status == 404)
            let checkpoint = CheckpointDocument(
                sessionID: "s1", sourceLastSequence: ChangesSequence(5),
                history: [.init(sessionID: "s1", recordedSequence: ChangesSequence(5))])
            let first = try await client.put("/db/_local/rep1", checkpoint.json)
            #expect(first.status == 201)
            #expect(first.json == ["ok": true, "id": "_local/rep1", "rev": "0-1"])

            let read = try await client.get("/db/_local/rep1")
            #expect(read.json["_id"] == "_local/rep1")
            #expect(read.json["_rev"] == "0-1")
            let decoded = try CheckpointDocument(json: read.json)
            #expect(decoded.sessionID == "s1")
            #expect(decoded.sourceLastSequence.localSequence == 5)
            #expect(decoded.revisionID == "0-1")

            // Updates must name the current local revision.
            #expect(try await client.put("/db/_local/rep1", ["session_id": "s2"]).status == 409)
            #expect(try await client.put("/db/_local/rep1", ["_rev": "0-7", "session_id": "s2"]).status == 409)
            var next = decoded
            next.sessionID = "s2"
            let second = try await client.put("/db/_local/rep1", next.json)
            #expect(second.json["rev"] == "0-2")
            #expect(try harness.collection.localDocument(id: "rep1")?["session_id"] == "s2")

            // Local documents are not documents: not in _changes, not in _all_docs.
            #expect(try await client.get("/db/_changes").json["results"] == [])
            #expect(try await client.get("/db/_all_docs").json["rows"] == [])

            #expect(try await client.send("DELETE", "/db/_local/rep1?rev=0-1").status == 409)
            #expect(try await client.send("DELETE", "/db/_local/rep1?rev=0-2").status == 200)
            #expect(try await client.get("/db/_local/rep1").status == 404)
            #expect(try await client.send("DELETE", "/db/_local/rep1").status == 404)
        }
    }

    @Test func malformedLocalBodiesAre400() async throws {
        try await ListenerHarness.with { harness async throws in
            #expect(try await harness.client.send("PUT", "/db/_local/x", bytes: Data("nope".utf8)).status == 400)
            #expect(try await harness.client.put("/db/_local/x", ["_id": "_local/y"]).status == 400)
            #expect(try await harness.client.send("POST", "/db/_local/x", json: [:]).status == 405)
            #expect(try harness.collection.localDocument(id: "x") == nil)
        }
    }

    /// A local document keeps keys that differ only in Unicode normalisation, by `PUT` and by
    /// `_bulk_docs`, as a document does.
    @Test func localBodiesKeepBothSpellingsOfAKey() async throws {
        try await ListenerHarness.with { harness async throws in
            let (nfc, nfd) = ("caf\u{E9}", "cafe\u{301}")
            let text = "{\"\(nfc)\": 1, \"\(nfd)\": 2}"
            let put = try await harness.client.send("PUT", "/db/_local/k", bytes: Data(text.utf8))
            #expect(put.status == 201)
            let stored = try #require(try harness.collection.localDocument(id: "k"))
            #expect(stored[nfc] == 1)
            #expect(stored[nfd] == 2)
            let read = try await harness.client.get("/db/_local/k")
            #expect(read.json[nfc] == 1)
            #expect(read.json[nfd] == 2)

            let bulk = "{\"docs\": [{\"_id\": \"_local/b\", \"\(nfc)\": 3, \"\(nfd)\": 4}]}"
            #expect(try await harness.client.send("POST", "/db/_bulk_docs", bytes: Data(bulk.utf8)).status == 201)
            let batched = try #require(try harness.collection.localDocument(id: "b"))
            #expect(batched[nfc] == 3)
            #expect(batched[nfd] == 4)
        }
    }
}
