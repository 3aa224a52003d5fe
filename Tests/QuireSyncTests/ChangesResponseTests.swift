import Quire
import Testing

@testable import QuireSync

@Suite struct ChangesResponseTests {
    @Test func roundTrips() throws {
        let response = ChangesResponse(
            results: [
                .init(sequence: ChangesSequence(1), id: "a", revisionIDs: ["1-a"], isDeleted: false),
                .init(
                    sequence: ChangesSequence(2), id: "b", revisionIDs: ["2-b", "2-c"], isDeleted: true,
                    document: ["_id": "b"], removedFrom: ["news"]),
            ], lastSequence: ChangesSequence(2))
        #expect(response.json["results"]?[0] == ["seq": "1", "id": "a", "changes": [["rev": "1-a"]]])
        #expect(response.json["results"]?[1]?["deleted"] == true)
        #expect(try ChangesResponse(json: response.json) == response)
    }

    @Test func readsCouchDBStyleSequences() throws {
        let couch: JSONValue = [
            "results": [["seq": 5, "id": "a", "changes": [["rev": "1-a"]]]], "last_seq": "5-g1AAA", "pending": 0,
        ]
        let response = try ChangesResponse(json: couch)
        #expect(response.results.first?.sequence.parameter == "5")
        #expect(response.lastSequence.parameter == "5-g1AAA")
    }

    @Test func parsesContinuousLines() throws {
        #expect(try ChangesResponse.parseContinuousLine("") == nil)
        #expect(try ChangesResponse.parseContinuousLine("   ") == nil)
        #expect(try ChangesResponse.parseContinuousLine(#"{"last_seq":"7"}"#) == .end(lastSequence: ChangesSequence(7)))
        let line = try ChangesResponse.parseContinuousLine(#"{"seq":"3","id":"x","changes":[{"rev":"1-a"}]}"#)
        #expect(line == .change(.init(sequence: ChangesSequence(3), id: "x", revisionIDs: ["1-a"], isDeleted: false)))
        #expect(throws: QuireError.self) { try ChangesResponse.parseContinuousLine(#"{"seq":"3"}"#) }
        #expect(throws: QuireError.self) { try ChangesResponse.parseContinuousLine("{") }
    }

    @Test func rejectsMalformedResponses() {
        let bad: [JSONValue] = [
            ["last_seq": 1], ["results": []], ["results": [["id": "a"]], "last_seq": 1],
            ["results": [["id": "a", "seq": 1, "changes": [["revision": "x"]]]], "last_seq": 1],
        ]
        for json in bad {
            #expect(throws: QuireError.self, "\(json)") { try ChangesResponse(json: json) }
        }
    }
}
