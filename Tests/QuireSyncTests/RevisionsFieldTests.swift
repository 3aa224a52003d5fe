import Quire
import Testing

@testable import QuireSync

@Suite struct RevisionsFieldTests {
    @Test func buildsFromARevisionAndItsAncestors() throws {
        let field = try RevisionsField(revisionID: "3-ccc", ancestors: ["2-bbb", "1-aaa"])
        #expect(field == RevisionsField(start: 3, ids: ["ccc", "bbb", "aaa"]))
        #expect(field.revisionIDs == ["3-ccc", "2-bbb", "1-aaa"])
        #expect(field.revisionID == "3-ccc")
        #expect(field.ancestors == ["2-bbb", "1-aaa"])
        #expect(field.json == ["start": 3, "ids": ["ccc", "bbb", "aaa"]])
    }

    @Test func stopsAtAGapInGenerations() throws {
        let field = try RevisionsField(revisionID: "5-e", ancestors: ["4-d", "2-b", "1-a"])
        #expect(field.ids == ["e", "d"])
    }

    @Test func rejectsMalformedRevisionIDs() {
        #expect(throws: QuireError.self) { try RevisionsField(revisionID: "abc", ancestors: []) }
        #expect(throws: QuireError.self) { try RevisionsField(revisionID: "0-abc", ancestors: []) }
        #expect(throws: QuireError.self) { try RevisionsField(revisionID: "2-", ancestors: []) }
    }

    @Test func readsJSONStrictly() throws {
        #expect(
            try RevisionsField(json: ["start": 2, "ids": ["b", "a"]]) == RevisionsField(start: 2, ids: ["b", "a"]))
        let bad: [JSONValue] = [
            ["ids": ["a"]], ["start": 0, "ids": ["a"]], ["start": 1, "ids": []], ["start": 1, "ids": "a"],
            ["start": 1, "ids": [1]], ["start": 1, "ids": ["b", "a"]], ["start": "2", "ids": ["a"]], "x",
        ]
        for json in bad {
            #expect(throws: QuireError.self, "\(json)") { try RevisionsField(json: json) }
        }
    }

    @Test func splitsRevisionIDs() {
        #expect(RevisionsField.split("12-abc")?.generation == 12)
        #expect(RevisionsField.split("12-abc")?.digest == "abc")
        #expect(RevisionsField.split("1-a-b")?.digest == "a-b")
        for bad in ["", "-a", "x-a", "0-a", "-1-a", "3"] {
            #expect(RevisionsField.split(bad) == nil, "\(bad)")
        }
    }
}
