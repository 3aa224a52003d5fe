import Foundation
import Quire
import Testing

@testable import QuireSync

/// `POST /{db}` creates a document, as CouchDB's does (couchdb-python's `save` and the IBM
/// Cloudant SDK's `post_document` use it; it was 405).
@Suite struct DocumentPostTests {
    @Test func postCreatesADocumentWithAGeneratedOrGivenID() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            let generated = try await client.post("/db", ["name": "Ada"])
            #expect(generated.status == 201)
            let id = try #require(generated.json["id"]?.stringValue)
            let rev = try #require(generated.json["rev"]?.stringValue)
            #expect(generated.header("ETag") == "\"\(rev)\"")
            #expect(generated.header("Location") == "/db/\(id)")
            #expect(try harness.collection.document(id: id)?.string(forKey: "name") == "Ada")

            let named = try await client.post("/db", ["_id": "grace", "name": "Grace"])
            #expect(named.json["id"] == "grace")
            #expect(try await client.post("/db", ["_id": "grace", "name": "again"]).status == 409)
            #expect(try await client.post("/db", ["_id": "_design/x"]).status == 400)
            #expect(harness.collection.count == 2)
        }
        try await ListenerHarness.with(readOnly: true) { harness async throws in
            #expect(try await harness.client.post("/db", ["name": "Ada"]).status == 403)
        }
    }
}
