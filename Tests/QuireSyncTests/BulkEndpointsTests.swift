import Foundation
import Quire
import Testing

@testable import QuireSync

@Suite struct BulkEndpointsTests {
    @Test func revsDiffListsWhatIsMissing() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.collection.insert(
                ForeignRevision(
                    documentID: "a", revisionID: "2-bb", ancestors: ["1-aa"], isDeleted: false, body: ["v": 2]))
            let reply = try await harness.client.post(
                "/db/_revs_diff", ["a": ["1-aa", "2-bb", "3-cc"], "b": ["1-xx"]])
            #expect(reply.status == 200)
            let diff = try RevsDiff.Response(json: reply.json)
            #expect(diff.entries[JSONKey("a")] == RevsDiff.Entry(missing: ["3-cc"], possibleAncestors: ["2-bb"]))
            #expect(diff.entries[JSONKey("b")] == RevsDiff.Entry(missing: ["1-xx"]))
            let nothing = try await harness.client.post("/db/_revs_diff", ["a": ["2-bb"]])
            #expect(nothing.json == [:])
            #expect(try await harness.client.post("/db/_revs_diff", ["a": "2-bb"]).status == 400)
            #expect(try await harness.client.post("/db/_revs_diff", ["a": [1]]).status == 400)
        }
    }

    @Test func bulkDocsWithoutNewEditsInsertsAncestry() async throws {
        try await ListenerHarness.with { harness async throws in
            let docs = BulkDocsRequest(
                documents: [
                    CouchDocument(
                        id: "x", revisionID: "3-ccc", revisions: RevisionsField(start: 3, ids: ["ccc", "bbb", "aaa"]),
                        body: ["v": 3]),
                    CouchDocument(
                        id: "gone", revisionID: "2-ddd", revisions: RevisionsField(start: 2, ids: ["ddd", "aaa"]),
                        isDeleted: true, body: [:]),
                ], newEdits: false)
            let reply = try await harness.client.post("/db/_bulk_docs", docs.json)
            #expect(reply.status == 201)
            let results = try BulkDocsRequest.results(json: reply.json)
            #expect(results == [.ok(id: "x", revisionID: "3-ccc"), .ok(id: "gone", revisionID: "2-ddd")])
            let info = try #require(try harness.collection.revisionInfo(id: "x"))
            #expect(info.revisionID == "3-ccc")
            #expect(info.history == ["2-bbb", "1-aaa"])
            #expect(try harness.collection.revisionInfo(id: "gone")?.isDeleted == true)
        }
    }

    @Test func bulkDocsReportsEachDocument() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("existing", #"{"v":1}"#)
            let reply = try await harness.client.post(
                "/db/_bulk_docs",
                [
                    "docs": [
                        ["_id": "fresh", "v": 1], ["_id": "existing", "v": 2], ["v": 3], ["_id": 5], "not an object",
                    ]
                ])
            #expect(reply.status == 201)
            let items = reply.json.arrayValue ?? []
            #expect(items.count == 5)
            #expect(items[0]["ok"] == true)
            #expect(items[0]["id"] == "fresh")
            #expect(items[1]["error"] == "conflict")
            #expect(items[2]["ok"] == true)  // a generated ID
            #expect((items[2]["id"]?.stringValue ?? "").count == 36)
            #expect(items[3]["error"] == "bad_request")
            #expect(items[4]["error"] == "bad_request")
            #expect(harness.collection.count == 3)
            #expect(try harness.collection.document(id: "existing")?.int(forKey: "v") == 1)

            let missingRev = try await harness.client.post(
                "/db/_bulk_docs", ["docs": [["_id": "norev", "v": 1]], "new_edits": false])
            #expect(missingRev.json[0]?["error"] == "bad_request")
            #expect(try await harness.client.post("/db/_bulk_docs", ["docs": "x"]).status == 400)
            #expect(try await harness.client.post("/db/_bulk_docs", ["docs": [], "new_edits": "no"]).status == 400)
        }
    }

    @Test func bulkDocsDeletesWithNewEdits() async throws {
        try await ListenerHarness.with { harness async throws in
            let saved = try harness.save("d", #"{"v":1}"#)
            let rev = try #require(saved.revisionID)
            let reply = try await harness.client.post(
                "/db/_bulk_docs", ["docs": [["_id": "d", "_rev": .string(rev), "_deleted": true]]])
            #expect(reply.json[0]?["ok"] == true)
            #expect(try harness.collection.document(id: "d") == nil)
        }
    }

    @Test func bulkGetReturnsRevisionsWithHistory() async throws {
        try await ListenerHarness.with { harness async throws in
            let first = try harness.save("a", #"{"v":1}"#)
            let rev1 = try #require(first.revisionID)
            first.setValue(2, forKey: "v")
            try harness.collection.save(document: first)
            let rev2 = try #require(first.revisionID)
            let request = BulkGetRequest(items: [
                .init(id: "a", revisionID: rev2), .init(id: "a"), .init(id: "a", revisionID: rev1), .init(id: "zzz"),
            ])
            let reply = try await harness.client.post("/db/_bulk_get?revs=true", request.json)
            #expect(reply.status == 200)
            let response = try BulkGetResponse(json: reply.json)
            #expect(response.results.map(\.id) == ["a", "a", "a", "zzz"])
            guard case .ok(let document) = response.results[0].docs.first else {
                Issue.record("expected a document")
                return
            }
            let decoded = try CouchDocument(json: document)
            #expect(decoded.revisionID == rev2)
            #expect(decoded.revisions?.revisionIDs == [rev2, rev1])
            #expect(decoded.body == ["v": 2])
            #expect(response.results[1].docs.first == .ok(document))
            // An old revision's body is gone: only leaves are kept.
            #expect(
                response.results[2].docs.first
                    == .error(id: "a", revisionID: rev1, error: "not_found", reason: "missing"))
            #expect(
                response.results[3].docs.first
                    == .error(id: "zzz", revisionID: nil, error: "not_found", reason: "missing"))
            #expect(try await harness.client.post("/db/_bulk_get", ["docs": [["rev": "1-a"]]]).status == 400)
            #expect(try await harness.client.post("/db/_bulk_get", ["nodocs": []]).status == 400)
        }
    }

    @Test func ensureFullCommitAnswers201() async throws {
        try await ListenerHarness.with { harness async throws in
            let reply = try await harness.client.send("POST", "/db/_ensure_full_commit", bytes: Data())
            #expect(reply.status == 201)
            #expect(reply.json == ["ok": true, "instance_start_time": "0"])
            // The flush is real: with the database closed it cannot happen, and 201 is not answered.
            // The listener stops with its database, in the background: the request is either
            // answered with an error or refused, whichever comes first (refused, under
            // ThreadSanitizer's slower server, where this test failed on the refusal).
            try harness.database.close()
            let closed = try? await harness.client.send("POST", "/db/_ensure_full_commit", bytes: Data())
            #expect(closed?.status != 201)
        }
    }
}

extension BulkEndpointsTests {
    /// `_bulk_docs` refuses the IDs `PUT` refuses, per document with CouchDB's
    /// `illegal_docid`, and stores `_local/` documents as local documents, as CouchDB does.
    @Test func bulkDocsRefusesReservedIDsAndStoresLocalDocumentsApart() async throws {
        try await ListenerHarness.with { harness async throws in
            for newEdits in [true, false] {
                let reply = try await harness.client.post(
                    "/db/_bulk_docs",
                    [
                        "new_edits": .bool(newEdits),
                        "docs": [
                            ["_id": "_foo", "_rev": "1-aa", "v": 1], ["_id": "_design/x", "_rev": "1-aa", "v": 1],
                            ["_id": "_local/", "_rev": "1-aa"], ["_id": "plain", "_rev": "1-aa", "v": 1],
                        ],
                    ])
                #expect(reply.status == 201)
                let results = try BulkDocsRequest.results(json: reply.json)
                #expect(results.count == 4)
                for (index, id) in ["_foo", "_design/x", "_local/"].enumerated() {
                    guard case .error(let resultID, _, let error, _) = results[index] else {
                        Issue.record("\(id) was accepted: \(results[index])")
                        continue
                    }
                    #expect(resultID == id)
                    #expect(error == "illegal_docid")
                }
            }
            // The library refuses such IDs outright (badDocID), so none can have been stored;
            // the feed, which lists every stored document, shows only the plain one.
            for id in ["_foo", "_design/x"] {
                #expect(throws: QuireError.self) { try harness.collection.revisionInfo(id: id) }
            }
            #expect(
                try await harness.client.get("/db/_changes").json["results"]?.arrayValue?.map { $0["id"] } == ["plain"])

            let local = try await harness.client.post("/db/_bulk_docs", ["docs": [["_id": "_local/cp", "seq": 7]]])
            #expect(try BulkDocsRequest.results(json: local.json) == [.ok(id: "_local/cp", revisionID: "0-1")])
            #expect(try harness.collection.localDocument(id: "cp")?["seq"] == 7)
            #expect(throws: QuireError.self) { try harness.collection.revisionInfo(id: "_local/cp") }
            let stale = try await harness.client.post("/db/_bulk_docs", ["docs": [["_id": "_local/cp", "seq": 8]]])
            guard case .error(_, _, let error, _) = try BulkDocsRequest.results(json: stale.json)[0] else {
                Issue.record("a local document update without its _rev was accepted")
                return
            }
            #expect(error == "conflict")
            let update = try await harness.client.post(
                "/db/_bulk_docs", ["docs": [["_id": "_local/cp", "_rev": "0-1", "seq": 8]]])
            #expect(try BulkDocsRequest.results(json: update.json) == [.ok(id: "_local/cp", revisionID: "0-2")])
            #expect(try await harness.client.get("/db/_local/cp").json["seq"] == 8)
        }
    }
}
