import Quire
import Testing

@testable import QuireSync

@Suite struct BulkDocsRequestTests {
    @Test func carriesDocumentsWithTheirAncestry() throws {
        let document = CouchDocument(
            id: "a", revisionID: "2-b", revisions: RevisionsField(start: 2, ids: ["b", "a"]), body: ["v": 1])
        let request = BulkDocsRequest(documents: [document], newEdits: false)
        #expect(request.json["new_edits"] == false)
        #expect(request.json["docs"]?[0]?["_revisions"] == ["start": 2, "ids": ["b", "a"]])
        let read = try BulkDocsRequest(json: request.json)
        #expect(!read.newEdits)
        #expect(try CouchDocument(json: read.docs[0]) == document)
        #expect(try BulkDocsRequest(json: ["docs": []]).newEdits)
        #expect(throws: QuireError.self) { try BulkDocsRequest(json: ["docs": [], "new_edits": 0]) }
    }

    @Test func readsResults() throws {
        let results = try BulkDocsRequest.results(json: [
            ["ok": true, "id": "a", "rev": "1-a"],
            ["id": "b", "error": "conflict", "reason": "Document update conflict."],
        ])
        #expect(
            results == [
                .ok(id: "a", revisionID: "1-a"),
                .error(id: "b", revisionID: nil, error: "conflict", reason: "Document update conflict."),
            ])
        #expect(
            results.map(\.json) == [
                ["ok": true, "id": "a", "rev": "1-a"],
                ["id": "b", "error": "conflict", "reason": "Document update conflict."],
            ])
        #expect(throws: QuireError.self) { try BulkDocsRequest.results(json: ["x": 1]) }
        #expect(throws: QuireError.self) { try BulkDocsRequest.results(json: [["id": "a"]]) }
    }
}
