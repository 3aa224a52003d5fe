import Quire
import Testing

@testable import QuireSync

@Suite struct RevsDiffTests {
    @Test func requestRoundTrips() throws {
        let request = RevsDiff.Request(revisions: [JSONKey("a"): ["1-x", "2-y"]])
        #expect(request.json == ["a": ["1-x", "2-y"]])
        #expect(try RevsDiff.Request(json: request.json) == request)
        #expect(throws: QuireError.self) { try RevsDiff.Request(json: ["a": "1-x"]) }
        #expect(throws: QuireError.self) { try RevsDiff.Request(json: ["a": [1]]) }
        #expect(throws: QuireError.self) { try RevsDiff.Request(json: [1]) }
    }

    @Test func responseOmitsEmptyAncestors() throws {
        let response = RevsDiff.Response(entries: [
            JSONKey("a"): .init(missing: ["2-y"], possibleAncestors: ["1-x"]), JSONKey("b"): .init(missing: ["1-z"]),
        ])
        #expect(
            response.json == ["a": ["missing": ["2-y"], "possible_ancestors": ["1-x"]], "b": ["missing": ["1-z"]]])
        #expect(try RevsDiff.Response(json: response.json) == response)
        #expect(throws: QuireError.self) { try RevsDiff.Response(json: ["a": ["possible_ancestors": []]]) }
    }

    /// Document IDs that differ only in Unicode normalisation are two documents, as the
    /// members of the JSON object that carries them are two members.
    @Test func documentIDsAreToldApartByTheirBytes() throws {
        let (nfc, nfd) = ("caf\u{E9}", "cafe\u{301}")
        let request = try RevsDiff.Request(json: try WireJSON.parse("{\"\(nfc)\": [\"1-a\"], \"\(nfd)\": [\"1-b\"]}"))
        #expect(request.revisions == [JSONKey(nfc): ["1-a"], JSONKey(nfd): ["1-b"]])
        #expect(try RevsDiff.Request(json: request.json) == request)
        let response = try RevsDiff.Response(
            json: try WireJSON.parse("{\"\(nfc)\": {\"missing\": [\"1-a\"]}, \"\(nfd)\": {\"missing\": [\"1-b\"]}}"))
        #expect(response.entries.count == 2)
        #expect(try RevsDiff.Response(json: response.json) == response)
    }
}
