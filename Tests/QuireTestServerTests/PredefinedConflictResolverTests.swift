import Foundation
import Quire
import QuireSync
import Testing

@testable import QuireTestServer

/// The test kit's predefined conflict resolvers, as Couchbase Lite C's test server answers
/// them (CBLReplicationConflictResolver.cpp), and `/startReplicator` taking them.
@Suite struct PredefinedConflictResolverTests {
    static func resolver(_ members: [String: JSONValue]) throws -> PredefinedConflictResolver {
        try PredefinedConflictResolver(RequestObject(members, place: "config.collections[0].conflictResolver"))
    }

    static let conflict = Conflict(
        documentID: "d",
        localDocument: MutableDocument(id: "d", data: ["name": "local", "tags": ["a": 1, "b": 2], "n": 1]),
        remoteDocument: MutableDocument(id: "d", data: ["name": "remote", "tags": ["b": 2, "c": 3], "m": 2]))

    @Test func eachResolverAnswersAsTheCTestServer() throws {
        let local = try Self.resolver(["name": "local-wins"]).resolve(conflict: Self.conflict)
        #expect(local?.string(forKey: "name") == "local")
        let remote = try Self.resolver(["name": "remote-wins"]).resolve(conflict: Self.conflict)
        #expect(remote?.string(forKey: "name") == "remote")
        #expect(try Self.resolver(["name": "delete"]).resolve(conflict: Self.conflict) == nil)

        let merged = try #require(
            try Self.resolver(["name": "merge", "params": ["property": "name"]]).resolve(conflict: Self.conflict))
        #expect(merged.array(forKey: "name")?.toArray() as? [String] == ["local", "remote"])
        #expect(merged.int(forKey: "m") == 2 && merged.value(forKey: "n") == nil)
        let missing = try #require(
            try Self.resolver(["name": "merge", "params": ["property": "n"]]).resolve(conflict: Self.conflict))
        #expect(missing.array(forKey: "n")?.count == 2)
        #expect(missing.array(forKey: "n")?.int(at: 0) == 1 && missing.array(forKey: "n")?.value(at: 1) is NSNull)

        let union = try #require(
            try Self.resolver(["name": "merge-dict", "params": ["property": "tags"]]).resolve(conflict: Self.conflict))
        #expect(union.dictionary(forKey: "tags")?.toDictionary() as? [String: Int] == ["a": 1, "b": 2, "c": 3])
        let notDictionaries = try #require(
            try Self.resolver(["name": "merge-dict", "params": ["property": "name"]]).resolve(conflict: Self.conflict))
        #expect(notDictionaries.string(forKey: "name") == "Both values are not dictionary")
        let clash = Conflict(
            documentID: "d", localDocument: MutableDocument(id: "d", data: ["tags": ["a": 1]]),
            remoteDocument: MutableDocument(id: "d", data: ["tags": ["a": 2]]))
        let clashed = try #require(
            try Self.resolver(["name": "merge-dict", "params": ["property": "tags"]]).resolve(conflict: clash))
        #expect(clashed.string(forKey: "tags") == "Conflicting values found at key named 'a'")
        let deleted = Conflict(documentID: "d", localDocument: nil, remoteDocument: Self.conflict.remoteDocument)
        #expect(try Self.resolver(["name": "merge", "params": ["property": "name"]]).resolve(conflict: deleted) == nil)
    }

    @Test func anUnknownResolverOrAMissingPropertyIsRefused() {
        #expect(throws: TestServerError.self) { try Self.resolver(["name": "newest-wins"]) }
        #expect(throws: TestServerError.self) { try Self.resolver(["name": "merge"]) }
    }

    /// A Sync Gateway endpoint starts a replicator that stops at once with an error naming the
    /// protocol, as a Couchbase Lite replicator stops when its peer cannot be reached; the
    /// collections and their resolvers are still checked first.
    @Test func aSyncGatewayEndpointStopsWithAnError() async throws {
        try await TestServerTests.withServer { _, client in
            #expect(try await client.post("/newSession", ["id": .string(client.clientID)]).status == 200)
            #expect(try await client.post("/reset", ["databases": ["db1": [:]]]).status == 200)
            let collections: JSONValue = [
                ["names": ["_default._default"], "conflictResolver": ["name": "merge", "params": ["property": "x"]]]
            ]
            let started = try await client.post(
                "/startReplicator",
                ["config": ["database": "db1", "endpoint": "ws://localhost:4984/db", "collections": collections]]
            ).json
            let id = try #require(started["id"]?.stringValue, "\(started)")
            let status = try await client.post("/getReplicatorStatus", ["id": .string(id)]).json
            #expect(status["activity"] == "STOPPED")
            #expect(status["error"]?["message"]?.stringValue?.contains("BLIP over WebSocket") == true, "\(status)")
            #expect(try await client.post("/stopReplicator", ["id": .string(id)]).status == 200)
            let refused = try await client.post(
                "/startReplicator",
                [
                    "config": [
                        "database": "db1", "endpoint": "ws://localhost:4984/db",
                        "collections": [["names": ["_default._default"], "conflictResolver": ["name": "nope"]]],
                    ]
                ])
            #expect(refused.status == 400)
        }
    }
}
