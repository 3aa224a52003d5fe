import Foundation
import Quire
import Testing

@testable import QuireSync

@Suite struct CouchDocumentTests {
    @Test func separatesMetadataFromTheBody() throws {
        let json: JSONValue = [
            "_id": "doc", "_rev": "2-b", "_revisions": ["start": 2, "ids": ["b", "a"]], "_deleted": false,
            "_attachments": ["x": ["stub": true]], "_conflicts": ["2-c"], "_removed": true, "name": "n",
        ]
        let document = try CouchDocument(json: json)
        #expect(document.id == "doc")
        #expect(document.revisionID == "2-b")
        #expect(document.ancestors == ["1-a"])
        #expect(!document.isDeleted)
        #expect(document.body == ["name": "n", "_removed": true])
        #expect(document.attachments == ["x": ["stub": true]])
    }

    @Test func encodesBackWithMetadata() throws {
        let document = CouchDocument(
            id: "d", revisionID: "2-b", revisions: RevisionsField(start: 2, ids: ["b", "a"]), isDeleted: true, body: [:]
        )
        #expect(
            document.json()
                == ["_id": "d", "_rev": "2-b", "_revisions": ["start": 2, "ids": ["b", "a"]], "_deleted": true])
        #expect(document.json(includeRevisions: false) == ["_id": "d", "_rev": "2-b", "_deleted": true])
        #expect(try CouchDocument(json: document.json()) == document)
    }

    @Test func takesTheIDFromTheURL() throws {
        #expect(try CouchDocument(json: ["v": 1], id: "url").id == "url")
        #expect(try CouchDocument(json: ["_id": "url", "v": 1], id: "url").id == "url")
        #expect(throws: QuireError.self) { try CouchDocument(json: ["_id": "other"], id: "url") }
    }

    @Test func rejectsBadMetadata() {
        let bad: [JSONValue] = [
            [:], ["_id": 3], ["_id": ""], ["_id": "a", "_rev": 1], ["_id": "a", "_rev": "x"],
            ["_id": "a", "_deleted": "true"], ["_id": "a", "_attachments": []],
            ["_id": "a", "_rev": "2-b", "_revisions": ["start": 2, "ids": ["c", "a"]]], "text",
        ]
        for json in bad {
            #expect(throws: QuireError.self, "\(json)") { try CouchDocument(json: json) }
        }
    }

    @Test func revisionsAloneGiveTheRevisionID() throws {
        let document = try CouchDocument(json: ["_id": "a", "_revisions": ["start": 3, "ids": ["c", "b"]]])
        #expect(document.revisionID == "3-c")
    }

    @Test func becomesAForeignRevision() throws {
        let document = try CouchDocument(json: [
            "_id": "a", "_rev": "2-b", "_revisions": ["start": 2, "ids": ["b", "a"]], "v": 1,
        ])
        let revision = try document.foreignRevision(body: document.body)
        #expect(revision.documentID == "a")
        #expect(revision.revisionID == "2-b")
        #expect(revision.ancestors == ["1-a"])
        #expect(revision.body == ["v": 1])
        #expect(throws: QuireError.self) { try CouchDocument(json: ["_id": "a"]).foreignRevision(body: [:]) }
    }

    @Test func readsStoredLeaves() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("leaf-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(name: "leaf", config: DatabaseConfiguration(directory: directory.path))
        defer { try? database.close() }
        let collection = try database.defaultCollection()
        try collection.insert(
            ForeignRevision(
                documentID: "x", revisionID: "2-b", ancestors: ["1-a"], isDeleted: false,
                body: ["v": 1, "_attachments": ["n": ["stub": true]]]))
        let leaf = try #require(try collection.leaves(id: "x").first)
        let document = try CouchDocument(id: "x", leaf: leaf)
        #expect(document.body == ["v": 1])
        #expect(document.attachments == ["n": ["stub": true]])
        #expect(document.revisions == RevisionsField(start: 2, ids: ["b", "a"]))
    }

    /// Keys that differ only in Unicode normalisation are two keys from the wire to a stored
    /// leaf and back, in the body and among attachment names, as fleece keeps them.
    @Test func keepsKeysThatDifferOnlyInNormalisation() throws {
        let (nfc, nfd) = ("caf\u{E9}", "cafe\u{301}")
        let text = """
            {"_id": "u", "_rev": "1-a", "\(nfc)": 1, "\(nfd)": 2,
             "_attachments": {"\(nfc).txt": {"stub": true}, "\(nfd).txt": {"stub": true, "length": 2}}}
            """
        let document = try CouchDocument(json: try WireJSON.parse(text))
        #expect(document.body.count == 2)
        #expect(document.body[nfc] == 1)
        #expect(document.body[nfd] == 2)
        #expect(document.attachments?.count == 2)
        #expect(try CouchDocument(json: document.json()) == document)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("leaf-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(name: "leaf", config: DatabaseConfiguration(directory: directory.path))
        defer { try? database.close() }
        let collection = try database.defaultCollection()
        var stored = document.body
        stored["_attachments"] = .object(try #require(document.attachments))
        try collection.insert(try document.foreignRevision(body: stored))
        let leaf = try #require(try collection.leaves(id: "u").first)
        #expect(leaf.body == stored)
        let again = try CouchDocument(id: "u", leaf: leaf)
        #expect(again.body == document.body)
        #expect(again.attachments == document.attachments)
    }
}
