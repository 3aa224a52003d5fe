import Foundation
import Quire
import Testing

@testable import QuireSync

/// The listener's document routes take their ID rules from the library (LiteCore's
/// isValidDocID): an ID the store would refuse is 400 `illegal_docid` on reads and writes
/// alike, never a 404 or a stored document.
@Suite struct ListenerDocumentIDTests {
    static let tooLong = String(repeating: "x", count: 241)

    @Test func documentRoutesRefuseInvalidIDs() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            for path in ["/db/\(Self.tooLong)", "/db/tab%09here", "/db/nul%00here"] {
                let put = try await client.put(path, ["v": 1])
                #expect(put.status == 400, "\(path)")
                #expect(put.json["error"] == "illegal_docid", "\(path)")
                let get = try await client.get(path)
                #expect(get.status == 400, "\(path)")
                #expect(get.json["error"] == "illegal_docid", "\(path)")
            }
            #expect(harness.collection.count == 0)
            let longest = String(repeating: "x", count: 240)
            #expect(try await client.put("/db/\(longest)", ["v": 1]).status == 201)
            #expect(try await client.get("/db/\(longest)").status == 200)
        }
    }

    @Test func bulkGetAnswersAnInvalidIDWithItsOwnError() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            #expect(try await client.put("/db/ok", ["v": 1]).status == 201)
            let reply = try await client.post(
                "/db/_bulk_get", ["docs": [["id": .string(Self.tooLong)], ["id": "ok"]]])
            #expect(reply.status == 200)
            let results = try #require(reply.json["results"]?.arrayValue)
            #expect(results.count == 2)
            let refused = try #require(results.first?["docs"]?[0]?["error"])
            #expect(refused["error"] == "illegal_docid")
            #expect(results.last?["docs"]?[0]?["ok"]?["v"] == 1)
        }
    }
}
