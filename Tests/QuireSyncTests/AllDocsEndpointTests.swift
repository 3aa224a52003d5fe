import Foundation
import Quire
import Testing

@testable import QuireSync

@Suite struct AllDocsEndpointTests {
    private func ids(_ reply: TestHTTPClient.Reply) -> [String] {
        (reply.json["rows"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    }

    @Test func listsLiveDocumentsByID() async throws {
        try await ListenerHarness.with { harness async throws in
            for id in ["b", "a", "d", "c", "B"] { try harness.save(id, #"{"id":"\#(id)"}"#) }
            let dead = try harness.save("e", #"{"v":1}"#)
            try harness.collection.delete(document: dead)
            let all = try await harness.client.get("/db/_all_docs")
            #expect(all.status == 200)
            #expect(all.json["total_rows"] == 5)
            #expect(ids(all) == ["B", "a", "b", "c", "d"])
            #expect(all.json["rows"]?[0]?["value"]?["rev"]?.stringValue?.hasPrefix("1-") == true)
            #expect(all.json["rows"]?[0]?["doc"] == nil)

            let range = try await harness.client.get(
                #"/db/_all_docs?startkey=%22a%22&endkey=%22c%22&include_docs=true"#)
            #expect(ids(range) == ["a", "b", "c"])
            #expect(range.json["rows"]?[1]?["doc"]?["id"] == "b")
            let exclusive = try await harness.client.get(
                #"/db/_all_docs?startkey=%22a%22&endkey=%22c%22&inclusive_end=false"#)
            #expect(ids(exclusive) == ["a", "b"])
            let limited = try await harness.client.get("/db/_all_docs?limit=2&skip=1")
            #expect(ids(limited) == ["a", "b"])
            let descending = try await harness.client.get(#"/db/_all_docs?descending=true&startkey=%22c%22&limit=2"#)
            #expect(ids(descending) == ["c", "b"])
        }
    }

    @Test func keysSelectDocumentsAndReportMissingOnes() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("a", #"{"v":1}"#)
            let dead = try harness.save("d", #"{"v":2}"#)
            try harness.collection.delete(document: dead)
            let posted = try await harness.client.post("/db/_all_docs?include_docs=true", ["keys": ["d", "zz", "a"]])
            let rows = posted.json["rows"]?.arrayValue ?? []
            #expect(rows.count == 3)
            #expect(rows[0]["value"]?["deleted"] == true)
            #expect(rows[0]["doc"] == .null)
            #expect(rows[1] == ["key": "zz", "error": "not_found"])
            #expect(rows[2]["doc"]?["v"] == 1)
            let query = try await harness.client.get(#"/db/_all_docs?keys=%5B%22a%22%5D"#)
            #expect(ids(query) == ["a"])
            #expect(try await harness.client.get("/db/_all_docs?keys=notjson").status == 400)
            #expect(try await harness.client.post("/db/_all_docs", ["keys": [1]]).status == 400)
            #expect(try await harness.client.get("/db/_all_docs?limit=-1").status == 400)
            #expect(try await harness.client.get("/db/_all_docs?startkey=5").status == 400)
        }
    }
}

extension AllDocsEndpointTests {
    /// `GET /{db}` and `_all_docs` read counts and the ID index; the counts
    /// stay right through saves, deletions, purges and expirations.
    @Test func databaseInfoAndAllDocsCountsFollowEveryKindOfChange() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            /// `doc_count`, `doc_del_count` and `_all_docs`'s `total_rows`.
            func info() async throws -> [JSONValue] {
                let database = try await client.get("/db").json
                let all = try await client.get("/db/_all_docs?limit=1").json
                return [database["doc_count"] ?? .null, database["doc_del_count"] ?? .null, all["total_rows"] ?? .null]
            }
            for index in 0..<6 { try harness.save("d\(index)", #"{"n":\#(index)}"#) }
            #expect(try await info() == [6, 0, 6])
            try harness.collection.delete(document: try #require(try harness.collection.document(id: "d0")))
            let rev = try #require(try harness.collection.revisionInfo(id: "d1")?.revisionID)
            #expect(try await client.send("DELETE", "/db/d1?rev=\(rev)").status == 200)
            #expect(try await info() == [4, 2, 4])
            try harness.collection.purge(id: "d0")
            #expect(try await info() == [4, 1, 4])
            try harness.collection.setDocumentExpiration(id: "d2", expiration: Date(timeIntervalSinceNow: -1))
            try await eventually("d2 expired") { try harness.collection.revisionInfo(id: "d2") == nil }
            #expect(try await info() == [3, 1, 3])
            let first = try await client.get("/db/_all_docs?limit=1")
            #expect(ids(first) == ["d3"])
            let last = try await client.get("/db/_all_docs?limit=1&descending=true")
            #expect(ids(last) == ["d5"])
            let keyed = try await client.post("/db/_all_docs?descending=true", ["keys": ["d3", "d1", "zz"]])
            #expect((keyed.json["rows"]?.arrayValue ?? []).map { $0["key"] } == ["zz", "d1", "d3"])
            #expect(keyed.json["rows"]?[1]?["value"]?["deleted"] == true)
        }
    }
}

extension AllDocsEndpointTests {
    /// `GET /{db}` and `_all_docs?limit=1` over a larger collection answer with the right
    /// counts; the time of each is printed (`QUIRE_COUNT_DOCUMENTS=200000` for the figure in
    /// RELIABILITY.md; 2,000 by default).
    @Test func countsStayRightAndCheapOnALargerCollection() async throws {
        let total = ProcessInfo.processInfo.environment["QUIRE_COUNT_DOCUMENTS"].flatMap(Int.init) ?? 2_000
        try await ListenerHarness.with { harness async throws in
            try harness.database.inBatch {
                for index in 0..<total {
                    try harness.collection.save(
                        document: MutableDocument(id: String(format: "doc-%07d", index), data: ["n": index]))
                }
            }
            try harness.collection.delete(document: try #require(try harness.collection.document(id: "doc-0000000")))
            // The connection is set up first, so the times below are the requests'.
            #expect(try await harness.client.get("/").status == 200)
            let clock = ContinuousClock()
            var database = TestHTTPClient.Reply(status: 0, headers: [:], body: Data())
            let infoTime = try await clock.measure { database = try await harness.client.get("/db") }
            var first = database
            let allDocsTime = try await clock.measure { first = try await harness.client.get("/db/_all_docs?limit=1") }
            #expect(database.json["doc_count"] == .int(Int64(total - 1)))
            #expect(database.json["doc_del_count"] == 1)
            #expect(first.json["total_rows"] == .int(Int64(total - 1)))
            #expect(ids(first) == ["doc-0000001"])
            print("\(total) documents: GET /db \(infoTime), _all_docs?limit=1 \(allDocsTime)")
        }
    }
}
