import Quire
import Testing

@testable import QuireSync

@Suite struct RevsDiffTests {
    @Test func requestRoundTrips() throws {
        let request = RevsDiff.Request(revisions: ["a": ["1-x", "2-y"]])
        #expect(request.json == ["a": ["1-x", "2-y"]])
        #expect(try RevsDiff.Request(json: request.json) == request)
        #expect(throws: QuireError.self) { try RevsDiff.Request(json: ["a": "1-x"]) }
        #expect(throws: QuireError.self) { try RevsDiff.Request(json: ["a": [1]]) }
        #expect(throws: QuireError.self) { try RevsDiff.Request(json: [1]) }
    }

    @Test func responseOmitsEmptyAncestors() throws {
        let response = RevsDiff.Response(entries: [
            "a": .init(missing: ["2-y"], possibleAncestors: ["1-x"]), "b": .init(missing: ["1-z"]),
        ])
        #expect(
            response.json == ["a": ["missing": ["2-y"], "possible_ancestors": ["1-x"]], "b": ["missing": ["1-z"]]])
        #expect(try RevsDiff.Response(json: response.json) == response)
        #expect(throws: QuireError.self) { try RevsDiff.Response(json: ["a": ["possible_ancestors": []]]) }
    }
}
