import Quire
import Testing

@testable import QuireSync

@Suite struct BulkGetResponseTests {
    @Test func roundTripsDocumentsAndErrors() throws {
        let response = BulkGetResponse(results: [
            .init(id: "a", docs: [.ok(["_id": "a", "_rev": "1-a"])]),
            .init(id: "b", docs: [.error(id: "b", revisionID: "1-b", error: "not_found", reason: "missing")]),
        ])
        #expect(response.json["results"]?[1]?["docs"]?[0]?["error"]?["reason"] == "missing")
        #expect(try BulkGetResponse(json: response.json) == response)
        #expect(throws: QuireError.self) {
            try BulkGetResponse(json: ["results": [["id": "a", "docs": [["neither": 1]]]]])
        }
    }

    @Test func requestRoundTrips() throws {
        let request = BulkGetRequest(items: [
            .init(id: "a", revisionID: "2-b", attachmentsSince: ["1-a"]), .init(id: "c"),
        ])
        #expect(request.json == ["docs": [["id": "a", "rev": "2-b", "atts_since": ["1-a"]], ["id": "c"]]])
        #expect(try BulkGetRequest(json: request.json) == request)
        #expect(throws: QuireError.self) { try BulkGetRequest(json: ["docs": [["rev": "1-a"]]]) }
        #expect(throws: QuireError.self) { try BulkGetRequest(json: ["docs": [["id": "a", "rev": 1]]]) }
    }
}
