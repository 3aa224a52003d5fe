import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// Documents as deep as the store accepts, inside the protocol's messages.
@Suite struct WireJSONTests {
    /// A document body of `levels` nested objects (the body itself is the first level), with
    /// a value at the bottom.
    static func deepBody(levels: Int) -> String {
        String(repeating: #"{"a":"#, count: levels - 1) + #"{"bottom":true}"#
            + String(repeating: "}", count: levels - 1)
    }

    private static func depth(_ value: JSONValue?) -> Int {
        switch value {
        case .object(let members): return 1 + (members.values.map { depth($0) }.max() ?? 0)
        case .array(let items): return 1 + (items.map { depth($0) }.max() ?? 0)
        default: return 0
        }
    }

    @Test func theStoresLimitIsTheDocumentLimitAndMessagesHaveRoomAroundIt() throws {
        let deepest = Self.deepBody(levels: JSONReader.maximumDepth)
        #expect(Self.depth(try JSONReader.parse(deepest)) == JSONReader.maximumDepth)
        #expect(throws: QuireError.self) { try JSONReader.parse(Self.deepBody(levels: JSONReader.maximumDepth + 1)) }
        let wrapped = #"{"results":[{"id":"d","docs":[{"ok":"# + deepest + "}]}]}"
        #expect(throws: QuireError.self) { try JSONReader.parse(wrapped) }
        let message = try WireJSON.parse(wrapped)
        #expect(try WireJSON.parse(try WireJSON.bytes(message)) == message)
    }

    /// Every response that wraps a document, for a document at the store's limit: each is
    /// 200 with the document whole (the issue saw `200 null`).
    @Test func responsesWrappingTheDeepestDocumentAreWhole() async throws {
        try await ListenerHarness.with { harness async throws in
            let levels = JSONReader.maximumDepth
            try harness.save("deep", Self.deepBody(levels: levels))
            let client = harness.client
            let requests: [(String, TestHTTPClient.Reply)] = [
                ("GET", try await client.get("/db/deep")),
                ("open_revs", try await client.get("/db/deep?open_revs=all&revs=true")),
                ("_bulk_get", try await client.post("/db/_bulk_get?revs=true", ["docs": [["id": "deep"]]])),
                ("_changes", try await client.get("/db/_changes?include_docs=true")),
                ("_all_docs", try await client.get("/db/_all_docs?include_docs=true")),
                ("POST _all_docs", try await client.post("/db/_all_docs?include_docs=true", ["keys": ["deep"]])),
            ]
            for (name, reply) in requests {
                #expect(reply.status == 200, "\(name)")
                let json = try WireJSON.parse(reply.body)
                #expect(json != .null, "\(name)")
                #expect(Self.depth(json) >= levels, "\(name): \(reply.text.prefix(80))")
            }
            let bulk = try BulkGetResponse(json: try WireJSON.parse(requests[2].1.body))
            guard case .ok(let document) = bulk.results.first?.docs.first else {
                Issue.record("_bulk_get did not send the document")
                return
            }
            #expect(Self.depth(document) == levels)
        }
    }

    /// Issue 20's test: a document at the store's limit replicated end to end, pushed to a
    /// listener and pulled from it into a third database.
    @Test func theDeepestDocumentReplicatesEndToEnd() async throws {
        let levels = JSONReader.maximumDepth
        let local = try SyncTestDatabase()
        let remote = try await ListeningPeer()
        try local.save("deep", Self.deepBody(levels: levels))
        try local.save("plain", #"{"v":1}"#)
        let push = try await replicate(local.collection, with: remote.url, type: .push)
        #expect(push.status.error == nil)
        #expect(push.pushed.count == 2)
        #expect(push.pushed.allSatisfy { $0.error == nil })

        let other = try SyncTestDatabase(name: "third")
        let pull = try await replicate(other.collection, with: remote.url, type: .pull)
        #expect(pull.status.error == nil)
        #expect(pull.pulled.count == 2)
        let original = try #require(try local.collection.document(id: "deep"))
        let copy = try #require(try other.collection.document(id: "deep"))
        #expect(copy.revisionID == original.revisionID)
        let originalJSON = try JSONReader.parse(original.toJSON())
        #expect(try JSONReader.parse(copy.toJSON()) == originalJSON)
        #expect(Self.depth(originalJSON) == levels)
        await remote.stop()
    }

    @Test func aDocumentDeeperThanTheStoreAcceptsIsRefusedAloneNeverAsNull() async throws {
        try await ListenerHarness.with { harness async throws in
            let tooDeep = Self.deepBody(levels: JSONReader.maximumDepth + 1)
            let put = try await harness.client.send("PUT", "/db/d", bytes: Data(tooDeep.utf8))
            #expect(put.status == 400)
            #expect(put.json["error"] == "bad_request")
            let bulk = #"{"docs":[{"_id":"d","x":"# + tooDeep + #"},{"_id":"fine","v":1}]}"#
            let reply = try await harness.client.send("POST", "/db/_bulk_docs", bytes: Data(bulk.utf8))
            #expect(reply.status == 201)
            let results = try BulkDocsRequest.results(json: reply.json)
            #expect(results.count == 2)
            if case .error(let id, _, let error, _) = results[0] {
                #expect(id == "d")
                #expect(error == "bad_request")
            } else {
                Issue.record("the too-deep document was accepted: \(results[0])")
            }
            #expect(
                results[1]
                    == .ok(
                        id: "fine",
                        revisionID: try #require(try harness.collection.revisionInfo(id: "fine")?.revisionID)))
            #expect(try harness.collection.revisionInfo(id: "d") == nil)
        }
    }

    @Test func aResponseThatCannotBeWrittenIsA500WithCouchDBsErrorObject() throws {
        var value: JSONValue = ["bottom": true]
        for _ in 0..<WireJSON.maximumDepth { value = ["a": value] }
        let response = JSONResponse.make(.ok, value)
        #expect(response.status == .internalServerError)
        #expect(response.headers[.contentType] == "application/json")
        #expect(throws: QuireError.self) { try JSONResponse.line(value) }
    }
}
