import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

@Suite struct URLEndpointListenerTests {
    @Test func startsOnAnEphemeralPortAndStops() async throws {
        let harness = try await ListenerHarness()
        let port = try #require(harness.listener.port)
        #expect(port > 0)
        #expect(harness.listener.urls?.map(\.absoluteString) == ["http://127.0.0.1:\(port)/db"])
        let reply = try await harness.client.get("/")
        #expect(reply.status == 200)
        await harness.shutdown()
        #expect(harness.listener.port == nil)
        #expect(harness.listener.urls == nil)
        await harness.listener.stop()  // stopping twice is harmless
    }

    @Test func startingTwiceIsAnError() async throws {
        try await ListenerHarness.with { harness async throws in
            await #expect(throws: QuireError.self) { try await harness.listener.start() }
        }
    }

    @Test func aConfigurationWithoutCollectionsIsRefused() async throws {
        let listener = URLEndpointListener(config: URLEndpointListenerConfiguration(collections: []))
        let error = await #expect(throws: QuireError.self) { try await listener.start() }
        #expect(error?.code == .invalidParameter)
        #expect(listener.port == nil)
    }

    // covers: URLEndpointListenerTest.testBusyPort
    @Test func aBusyPortIsANetworkError() async throws {
        try await ListenerHarness.with { harness async throws in
            let second = URLEndpointListener(
                config: URLEndpointListenerConfiguration(
                    collections: [harness.collection], port: harness.listener.port, networkInterface: "127.0.0.1"))
            let error = await #expect(throws: QuireError.self) { try await second.start() }
            #expect(error?.code == .networkError)
        }
    }

    @Test func welcomeNamesTheVendor() async throws {
        try await ListenerHarness.with { harness async throws in
            let reply = try await harness.client.get("/")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.json["couchdb"] == "Welcome")
            #expect(reply.json["vendor"]?["name"] == "Quire")
            #expect(reply.json["version"] == "3.3.0")
            let uuid = try harness.database.publicUUID().replacingOccurrences(of: "-", with: "").lowercased()
            #expect(reply.json["uuid"] == .string(uuid))
        }
    }

    @Test func databaseInformationCountsDocuments() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("a", #"{"n":1}"#)
            let b = try harness.save("b", #"{"n":2}"#)
            try harness.collection.delete(document: b)
            let reply = try await harness.client.get("/db")
            #expect(reply.status == 200)
            #expect(reply.json["db_name"] == "db")
            #expect(reply.json["update_seq"] == "3")
            #expect(reply.json["doc_count"] == 1)
            #expect(reply.json["doc_del_count"] == 1)
            #expect(reply.json["instance_start_time"] == "0")
        }
    }

    @Test func collectionsHaveKeyspacePaths() async throws {
        try await ListenerHarness.with(extraCollections: [("inventory", "hotels"), ("_default", "people")]) {
            harness async throws in
            let hotels = try #require(try harness.database.collection(name: "hotels", scope: "inventory"))
            try hotels.save(document: try MutableDocument(id: "h1", json: #"{"name":"Ritz"}"#))
            let reply = try await harness.client.get("/db.inventory.hotels/h1")
            #expect(reply.status == 200)
            #expect(reply.json["name"] == "Ritz")
            #expect(try await harness.client.get("/db/h1").status == 404)
            #expect(try await harness.client.get("/db.inventory.hotels").json["db_name"] == "db.inventory.hotels")
            #expect(try await harness.client.get("/db.people").json["db_name"] == "db._default.people")
            #expect(try await harness.client.get("/db._default._default").json["db_name"] == "db")
            #expect(try await harness.client.get("/db.inventory.nothing").status == 404)
        }
    }

    @Test func unknownPathsAre404AndWrongMethods405() async throws {
        try await ListenerHarness.with { harness async throws in
            let client = harness.client
            let missing = try await client.get("/nodb")
            #expect(missing.status == 404)
            #expect(missing.json["error"] == "not_found")
            #expect(try await client.get("/_utils").status == 404)
            #expect(try await client.get("/db/_design/app").status == 404)
            let delete = try await client.send("DELETE", "/db")
            #expect(delete.status == 405)
            #expect(delete.json["error"] == "method_not_allowed")
            #expect(delete.header("Allow") == "GET,HEAD,POST")
            #expect(try await client.get("/db/_bulk_docs").status == 405)
            #expect(try await client.send("PUT", "/db/_changes", json: [:]).status == 405)
        }
    }

    @Test func basicAuthenticationGuardsEveryRequest() async throws {
        let authenticator = ListenerPasswordAuthenticator { $0 == "sync" && $1 == "s3cret" }
        try await ListenerHarness.with(authenticator: authenticator) { harness async throws in
            // 401 replies go through a raw socket: FoundationNetworking stalls on their challenge.
            let raw = RawHTTPClient(port: harness.listener.port ?? 0)
            let anonymous = try await raw.send("GET /db HTTP/1.1")
            #expect(anonymous.status == 401)
            #expect(anonymous.json["error"] == "unauthorized")
            #expect(anonymous.header("WWW-Authenticate") == #"Basic realm="Quire""#)
            let body = Data(#"{"a":1}"#.utf8)
            let wrongToken = Data("sync:nope".utf8).base64EncodedString()
            let wrong = try await raw.send(
                "PUT /db/doc HTTP/1.1\r\nAuthorization: Basic \(wrongToken)\r\nContent-Length: \(body.count)",
                body: body)
            #expect(wrong.status == 401)
            #expect(try await raw.send("GET /db HTTP/1.1\r\nAuthorization: Basic ***").status == 401)
            #expect(try await raw.send("GET /db HTTP/1.1\r\nAuthorization: Bearer abc").status == 401)
            #expect(harness.collection.count == 0)
            let good = harness.client.authenticated("sync", "s3cret")
            #expect(try await good.get("/db").status == 200)
            #expect(try await good.put("/db/doc", ["a": 1]).status == 201)
            #expect(harness.collection.count == 1)
        }
    }

    @Test func readOnlyRefusesEveryDocumentWrite() async throws {
        try await ListenerHarness.with(readOnly: true) { harness async throws in
            try harness.save("existing", #"{"a":1}"#)
            let rev = try #require(try harness.collection.revisionInfo(id: "existing")?.revisionID)
            let client = harness.client
            let put = try await client.put("/db/new", ["a": 1])
            #expect(put.status == 403)
            #expect(put.json["error"] == "forbidden")
            #expect(try await client.put("/db/existing", ["_rev": .string(rev), "a": 2]).status == 403)
            #expect(try await client.send("DELETE", "/db/existing?rev=\(rev)").status == 403)
            let bulk = try await client.post(
                "/db/_bulk_docs", ["docs": [["_id": "x", "_rev": "1-abc"]], "new_edits": false])
            #expect(bulk.status == 403)
            #expect(harness.collection.count == 1)
            #expect(try harness.collection.document(id: "existing")?.int(forKey: "a") == 1)
            #expect(try harness.collection.document(id: "x") == nil)
            // Reading still works; local documents are writes too (issue 20).
            #expect(try await client.get("/db/existing").status == 200)
            #expect(try await client.get("/db/_changes").status == 200)
            #expect(try await client.post("/db/_revs_diff", ["existing": [.string(rev)]]).status == 200)
            #expect(try await client.put("/db/_local/checkpoint", ["seq": 1]).status == 403)
            #expect(try await client.send("DELETE", "/db/_local/checkpoint?rev=0-1").status == 403)
            #expect(try harness.collection.localDocumentIDs().isEmpty)
        }
    }

    @Test func oversizedBodiesAre413AndWriteNothing() async throws {
        try await ListenerHarness.with(maxRequestBodySize: 1024) { harness async throws in
            let big = String(repeating: "x", count: 4096)
            let reply = try await harness.client.post(
                "/db/_bulk_docs", ["docs": [["_id": "big", "text": .string(big)]]])
            #expect(reply.status == 413)
            #expect(reply.json["error"] == "too_large")
            #expect(harness.collection.count == 0)
            // A body under the limit on the same listener is fine.
            #expect(try await harness.client.put("/db/small", ["a": 1]).status == 201)
        }
    }

    @Test func malformedJSONIs400WithTheByteOffset() async throws {
        try await ListenerHarness.with { harness async throws in
            let reply = try await harness.client.send(
                "POST", "/db/_bulk_docs", bytes: Data(#"{"docs": [{"_id": "a",]}"#.utf8))
            #expect(reply.status == 400)
            #expect(reply.json["error"] == "bad_request")
            #expect(reply.json["reason"]?.stringValue?.contains("at byte 22") == true)
            let notObject = try await harness.client.send("PUT", "/db/doc", bytes: Data("[1,2]".utf8))
            #expect(notObject.status == 400)
            let empty = try await harness.client.send("POST", "/db/_revs_diff", bytes: Data())
            #expect(empty.status == 400)
            let invalidUTF8 = try await harness.client.send(
                "PUT", "/db/doc", bytes: Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]))
            #expect(invalidUTF8.status == 400)
            #expect(harness.collection.count == 0)
            // The server is still up.
            #expect(try await harness.client.get("/").status == 200)
        }
    }

    @Test func headAnswersWithoutABody() async throws {
        try await ListenerHarness.with { harness async throws in
            try harness.save("doc", #"{"a":1}"#)
            let reply = try await harness.client.send("HEAD", "/db/doc")
            #expect(reply.status == 200)
            #expect(reply.body.isEmpty)
            #expect(try await harness.client.send("HEAD", "/db/missing").status == 404)
        }
    }
}
