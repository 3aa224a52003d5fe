import Foundation
import Quire
import Testing

@testable import QuireSync

/// What the listener does with documents that arrive over the wire: the revision checks, the
/// special members, the numbers and the attachment bytes of refused writes.
@Suite struct RevisionWriterTests {
    private static let top = RevisionID.maximumGeneration

    /// Issue 20's crash: `PUT ?new_edits=false` with a revision at the top generation, then
    /// an ordinary edit of it, used to trap on generation + 1 and stop the process. Now the
    /// insert of anything above the top is 400 and every edit of a top-generation document
    /// is 400, through PUT, DELETE and `_bulk_docs`, and the server keeps answering.
    @Test func editsOfATopGenerationDocumentAre400AndTheServerLives() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            for bad in ["9223372036854775807-abc", "\(Self.top + 1)-abc", "0-abc", "007-abc", "1.5-abc", "1-a,b"] {
                let reply = try await client.put("/db/x?new_edits=false", ["_rev": .string(bad), "v": 1])
                #expect(reply.status == 400, "\(bad)")
                #expect(reply.json["error"] == "bad_request")
            }
            let top = "\(Self.top)-abc"
            #expect(try await client.put("/db/x?new_edits=false", ["_rev": .string(top), "v": 1]).status == 201)

            let put = try await client.put("/db/x", ["_rev": .string(top), "v": 2])
            #expect(put.status == 400)
            #expect(put.json["error"] == "bad_request")
            #expect(put.json["reason"]?.stringValue?.contains("\(Self.top)") == true)
            #expect(try await client.send("PUT", "/db/x?rev=\(top)", json: ["v": 2]).status == 400)
            let delete = try await client.send("DELETE", "/db/x?rev=\(top)")
            #expect(delete.status == 400)
            #expect(try await client.send("DELETE", "/db/x", headers: ["If-Match": "\"\(top)\""]).status == 400)

            let bulk = try await client.post(
                "/db/_bulk_docs",
                [
                    "docs": [
                        ["_id": "x", "_rev": .string(top), "v": 3],
                        ["_id": "x", "_rev": .string(top), "_deleted": true],
                        ["_id": "y", "v": 1],
                    ]
                ])
            #expect(bulk.status == 201)
            let results = try BulkDocsRequest.results(json: bulk.json)
            #expect(results.count == 3)
            for result in results.prefix(2) {
                guard case .error(_, _, let error, _) = result else {
                    Issue.record("expected an error, got \(result)")
                    continue
                }
                #expect(error == "bad_request")
            }
            let replicated = try await client.post(
                "/db/_bulk_docs",
                [
                    "new_edits": false,
                    "docs": [["_id": "z", "_rev": "9223372036854775807-abc"], ["_id": "w", "_rev": .string(top)]],
                ])
            let replicatedResults = try BulkDocsRequest.results(json: replicated.json)
            #expect(replicatedResults.count == 2)
            if case .error(_, _, let error, _) = replicatedResults[0] {
                #expect(error == "bad_request")
            } else {
                Issue.record("expected an error for the out-of-range revision")
            }
            #expect(replicatedResults[1] == .ok(id: "w", revisionID: top))

            // Nothing changed, the server answers, and a malformed ?rev= is 400, not 409.
            #expect(try harness.collection.document(id: "x")?.revisionID == top)
            #expect(try harness.collection.document(id: "x")?.int(forKey: "v") == 1)
            #expect(try await client.get("/db/x").status == 200)
            #expect(try await client.send("DELETE", "/db/x?rev=garbage").status == 400)
            #expect(try await client.send("DELETE", "/db/x?rev=18446744073709551616-a").status == 400)
            #expect(try await client.get("/").status == 200)
        }
    }

    @Test func specialMembersOtherThanCouchDBsAreRefused() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            let bad = try await client.put("/db/doc", ["_foo": 1, "v": 1])
            #expect(bad.status == 400)
            #expect(bad.json["error"] == "doc_validation")
            #expect(bad.json["reason"] == "Bad special document member: _foo")
            let bulk = try await client.post("/db/_bulk_docs", ["docs": [["_id": "b", "_bar": true]]])
            let results = try BulkDocsRequest.results(json: bulk.json)
            #expect(
                results == [
                    .error(
                        id: "b", revisionID: nil, error: "doc_validation", reason: "Bad special document member: _bar")
                ])
            #expect(try harness.collection.revisionInfo(id: "doc") == nil)
            #expect(try harness.collection.revisionInfo(id: "b") == nil)

            // CouchDB's own members pass (read-only ones are dropped), and `_removed` is kept.
            let good = try await client.put(
                "/db/doc", ["v": 1, "_conflicts": [], "_revs_info": [], "_local_seq": 1, "_removed": false])
            #expect(good.status == 201)
            #expect(try harness.collection.document(id: "doc")?.boolean(forKey: "_removed") == false)
            #expect(try harness.collection.document(id: "doc")?.contains(key: "_conflicts") == false)
        }
    }

    @Test func integersBeyond64BitsAreRefusedNotRounded() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            for number in [
                "18446744073709551616", "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890",
            ] {
                let reply = try await client.send("PUT", "/db/n", bytes: Data(#"{"big":\#(number)}"#.utf8))
                #expect(reply.status == 400, "\(number)")
                #expect(reply.json["error"] == "bad_request")
                #expect(reply.json["reason"]?.stringValue?.contains("64-bit") == true)
            }
            #expect(try harness.collection.revisionInfo(id: "n") == nil)
            let edges = #"{"max":9223372036854775807,"min":-9223372036854775808,"big":1e30,"negativeZero":-0}"#
            #expect(try await client.send("PUT", "/db/n", bytes: Data(edges.utf8)).status == 201)
            let stored = try #require(try harness.collection.document(id: "n"))
            #expect(stored.int64(forKey: "max") == Int64.max)
            #expect(stored.int64(forKey: "min") == Int64.min)
            #expect(stored.double(forKey: "big") == 1e30)
        }
    }

    @Test func aWriteRefusedWith409LeavesNoBlobFile() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            let rev = try #require(try await client.put("/db/doc", ["v": 1]).json["rev"]?.stringValue)
            _ = try await client.put("/db/doc", ["_rev": .string(rev), "v": 2])
            let blobs = harness.directory.appendingPathComponent("db.quire").appendingPathComponent("Attachments")
            let before = (try? FileManager.default.contentsOfDirectory(atPath: blobs.path)) ?? []
            let bytes = Data("bytes of a refused write \(UUID())".utf8)
            let stale = try await client.put(
                "/db/doc",
                [
                    "_rev": .string(rev), "v": 3,
                    "_attachments": [
                        "a.txt": ["content_type": "text/plain", "data": .string(bytes.base64EncodedString())]
                    ],
                ])
            #expect(stale.status == 409)
            let fresh = try await client.put(
                "/db/new",
                [
                    "_rev": "1-abc",
                    "_attachments": [
                        "a.txt": ["content_type": "text/plain", "data": .string(bytes.base64EncodedString())]
                    ],
                ])
            #expect(fresh.status == 409)
            let after = (try? FileManager.default.contentsOfDirectory(atPath: blobs.path)) ?? []
            #expect(Set(after) == Set(before))
        }
    }
}
