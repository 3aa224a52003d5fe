import Foundation
import Quire
import Testing

@testable import QuireSync

/// `POST /db/_all_docs` reads its options from the JSON body as CouchDB does (they used to
/// be ignored, every row coming back), and the query string still works beside it.
@Suite struct AllDocsOptionsTests {
    private func ids(_ reply: TestHTTPClient.Reply) -> [String] {
        (reply.json["rows"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    }

    @Test func postedOptionsShapeTheRows() async throws {
        try await ListenerHarness.with { harness async throws in
            for id in ["a", "b", "c", "d", "e"] { try harness.save(id, #"{"id":"\#(id)"}"#) }
            let client = harness.client
            #expect(ids(try await client.post("/db/_all_docs", ["limit": 2])) == ["a", "b"])
            #expect(ids(try await client.post("/db/_all_docs", ["skip": 3])) == ["d", "e"])
            #expect(ids(try await client.post("/db/_all_docs", ["descending": true, "limit": 2])) == ["e", "d"])
            #expect(
                ids(try await client.post("/db/_all_docs", ["start_key": "b", "end_key": "d"])) == ["b", "c", "d"])
            #expect(
                ids(try await client.post("/db/_all_docs", ["startkey": "b", "endkey": "d", "inclusive_end": false]))
                    == ["b", "c"])
            let withDocs = try await client.post("/db/_all_docs", ["include_docs": true, "limit": 1])
            #expect(withDocs.json["rows"]?[0]?["doc"]?["id"] == "a")
            #expect(try await client.post("/db/_all_docs", ["limit": 1]).json["rows"]?[0]?["doc"] == nil)
            // Keys with skip and limit, in the order given.
            let keyed = try await client.post("/db/_all_docs", ["keys": ["e", "a", "c"], "skip": 1, "limit": 1])
            #expect(ids(keyed) == ["a"])
            // The body wins over the query string.
            #expect(ids(try await client.post("/db/_all_docs?limit=4", ["limit": 1])) == ["a"])
            #expect(ids(try await client.post("/db/_all_docs?limit=1", [:])) == ["a"])
            // A value of the wrong type is 400, naming the option.
            let bad = try await client.post("/db/_all_docs", ["limit": "two"])
            #expect(bad.status == 400)
            #expect(bad.json["reason"]?.stringValue?.contains("limit") == true)
            #expect(try await client.post("/db/_all_docs", ["descending": "yes"]).status == 400)
            #expect(try await client.post("/db/_all_docs", ["start_key": 3]).status == 400)
        }
    }

    @Test func revsInfoListsTheRevisionAndItsAncestors() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            let rev1 = try #require(try await client.put("/db/doc", ["v": 1]).json["rev"]?.stringValue)
            let rev2 = try #require(
                try await client.put("/db/doc", ["_rev": .string(rev1), "v": 2]).json["rev"]?.stringValue)
            let got = try await client.get("/db/doc?revs_info=true")
            #expect(
                got.json["_revs_info"] == [
                    ["rev": .string(rev2), "status": "available"], ["rev": .string(rev1), "status": "missing"],
                ])
            #expect(try await client.get("/db/doc").json["_revs_info"] == nil)
        }
    }
}
