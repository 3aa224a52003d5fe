import Foundation
import Quire
import Testing

@testable import QuireSync

/// Documents and attachments carry `ETag: "<rev>"`, as CouchDB's do: couchdb-python,
/// pycouchdb, aiocouch and couchdb3 read a document's current revision from it (a `HEAD`
/// before a delete), and `If-None-Match` with it answers 304.
@Suite struct EntityTagTests {
    @Test func documentResponsesNameTheRevisionAndIfNoneMatchAnswers304() async throws {
        try await ListenerHarness.with { harness async throws in
            let raw = RawHTTPClient(port: try #require(harness.listener.port))
            let created = try await harness.client.put("/db/doc", ["v": 1])
            let rev1 = try #require(created.json["rev"]?.stringValue)
            #expect(created.header("ETag") == "\"\(rev1)\"")

            let head = try await raw.send("HEAD /db/doc HTTP/1.1")
            #expect(head.status == 200)
            #expect(head.header("ETag") == "\"\(rev1)\"")
            let got = try await raw.send("GET /db/doc HTTP/1.1")
            #expect(got.header("ETag") == "\"\(rev1)\"")
            #expect(got.json["v"] == 1)

            let unchanged = try await raw.send("GET /db/doc HTTP/1.1\r\nIf-None-Match: \"\(rev1)\"")
            #expect(unchanged.status == 304)
            #expect(unchanged.body.isEmpty)
            #expect(unchanged.header("ETag") == "\"\(rev1)\"")
            #expect(try await raw.send("GET /db/doc HTTP/1.1\r\nIf-None-Match: \"1-other\"").status == 200)

            let updated = try await harness.client.put("/db/doc", ["_rev": .string(rev1), "v": 2])
            let rev2 = try #require(updated.json["rev"]?.stringValue)
            #expect(updated.header("ETag") == "\"\(rev2)\"")
            #expect(try await raw.send("GET /db/doc HTTP/1.1\r\nIf-None-Match: \"\(rev1)\"").status == 200)

            let deleted = try await harness.client.send("DELETE", "/db/doc?rev=\(rev2)")
            let tombstone = try #require(deleted.json["rev"]?.stringValue)
            #expect(deleted.header("ETag") == "\"\(tombstone)\"")
        }
    }

    @Test func attachmentsAreTaggedWithTheirRevision() async throws {
        try await ListenerHarness.with { harness async throws in
            let document = MutableDocument(id: "pic")
            document.setValue(Blob(contentType: "image/png", data: Data("png".utf8)), forKey: "photo")
            try harness.collection.save(document: document)
            let rev = try #require(document.revisionID)
            let raw = RawHTTPClient(port: try #require(harness.listener.port))
            let got = try await raw.send("GET /db/pic/blob_/photo HTTP/1.1")
            #expect(got.status == 200)
            #expect(got.header("ETag") == "\"\(rev)\"")
            let unchanged = try await raw.send("GET /db/pic/blob_/photo HTTP/1.1\r\nIf-None-Match: W/\"\(rev)\"")
            #expect(unchanged.status == 304)
        }
    }
}
