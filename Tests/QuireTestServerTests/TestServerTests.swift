import Foundation
import Quire
import QuireFixtureBuilder
import QuireFixtures
import QuireTestServer
import Testing

/// `quire testserver` driven over HTTP as a test-kit client drives a Couchbase Lite test
/// server, every request and response checked against the protocol's schemas.
@Suite struct TestServerTests {
    /// A small dataset in the test kit's layout: `travel/` with airlines and hotels (one hotel
    /// with a blob), and `blobs/s1.jpg`.
    static func makeDatasetRoot() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "testserver-datasets-\(UUID().uuidString)")
        let travel = root.appendingPathComponent("travel")
        let attachments = travel.appendingPathComponent(DatasetBlobName.folderName)
        try FileManager.default.createDirectory(at: attachments, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("blobs"), withIntermediateDirectories: true)
        let picture = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let digest = DatasetBlobName.digest(of: picture)
        try picture.write(to: attachments.appendingPathComponent(try DatasetBlobName.fileName(forDigest: digest)))
        try Data(#"{"name":"travel","collections":["travel.airlines","travel.hotels"]}"#.utf8)
            .write(to: travel.appendingPathComponent("index.json"))
        try Data(
            """
            {"_id":"airline_1","name":"Aer Quire","iata":"AQ","tags":["a","b"]}
            {"_id":"airline_2","name":"Blue Sky","iata":"BS"}
            {"_id":"airline_3","name":"Cloud Line","iata":"CL"}

            """.utf8
        ).write(to: travel.appendingPathComponent("travel.airlines.jsonl"))
        try Data(
            """
            {"_id":"hotel_1","name":"Harbour","geo":{"lat":55.9,"lon":-3.2,"accuracy":"ROOFTOP"},"image":{"@type":"blob","content_type":"image/png","digest":"\(digest)","length":300}}

            """.utf8
        ).write(to: travel.appendingPathComponent("travel.hotels.jsonl"))
        try Data((0..<64).map { UInt8($0) }).write(to: root.appendingPathComponent("blobs/s1.jpg"))
        return root
    }

    static func withServer(_ body: (TestServer, TestKitClient) async throws -> Void) async throws {
        let root = try makeDatasetRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let server = TestServer(configuration: TestServerConfiguration(port: 0, datasetRoot: root, log: { _ in }))
        try await server.start()
        let client = TestKitClient(port: try #require(server.port), schema: try TestKitSchema.load())
        do {
            try await body(server, client)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Polls `/getReplicatorStatus` until the replicator stops (the protocol has no push of
    /// status); bounded so a broken replicator cannot hang the test.
    static func finalStatus(_ client: TestKitClient, replicator: String) async throws -> (JSONValue, [JSONValue]) {
        var documents: [JSONValue] = []
        for _ in 0..<1200 {
            let status = try await client.post("/getReplicatorStatus", ["id": .string(replicator)]).json
            documents += status["documents"]?.arrayValue ?? []
            if status["activity"] == "STOPPED" { return (status, documents) }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("replicator \(replicator) did not stop")
        return (.null, documents)
    }

    @Test func datasetRoundTripThroughEveryEndpoint() async throws {
        try await Self.withServer { _, client in
            let info = try await client.send("GET", "/", body: nil, headers: [:])
            #expect(info.status == 200)
            #expect(info.json["apiVersion"] == 2)
            #expect(try await client.post("/newSession", ["id": .string(client.clientID)]).status == 200)
            #expect(try await client.post("/log", ["message": "round trip begins"]).status == 200)
            let reset = try await client.post(
                "/reset",
                [
                    "test": "round trip",
                    "databases": [
                        "db1": ["dataset": "https://example.com/dataset/server/dbs/4.0/travel.cblite2.zip"],
                        "peer": ["collections": ["travel.airlines", "travel.hotels"]],
                        "empty": nil,
                    ],
                ])
            #expect(reset.status == 200, "\(reset.json)")

            let all = try await client.post(
                "/getAllDocuments",
                ["database": "db1", "collections": ["travel.airlines", "travel.hotels", "travel.nothing"]]
            ).json
            #expect(
                all["travel.airlines"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [
                    "airline_1", "airline_2", "airline_3",
                ])
            #expect(all["travel.hotels"]?.arrayValue?.count == 1)
            #expect(all["travel.nothing"] == nil)

            let snapshot = try await client.post(
                "/snapshotDocuments",
                [
                    "database": "db1",
                    "documents": [
                        ["collection": "travel.airlines", "id": "airline_1"],
                        ["collection": "travel.airlines", "id": "airline_2"],
                        ["collection": "travel.airlines", "id": "airline_3"],
                        ["collection": "travel.hotels", "id": "hotel_1"],
                        ["collection": "travel.hotels", "id": "hotel_2"],
                    ],
                ]
            ).json["id"]?.stringValue
            let snapshotID = try #require(snapshot)

            let changes: JSONValue = [
                [
                    "type": "UPDATE", "collection": "travel.airlines", "documentID": "airline_1",
                    "updatedProperties": [["name": "Aer Quire Two", "tags[3]": "d", "hub.city": "Dublin"]],
                    "removedProperties": ["iata"],
                ],
                ["type": "DELETE", "collection": "travel.airlines", "documentID": "airline_2"],
                ["type": "PURGE", "collection": "travel.airlines", "documentID": "airline_3"],
                [
                    "type": "UPDATE", "collection": "travel.hotels", "documentID": "hotel_2",
                    "updatedProperties": [["name": "New Hotel"]],
                    "updatedBlobs": ["photos[1].thumbnail": "https://example.com/dataset/server/blobs/s1.jpg"],
                ],
                [
                    "type": "UPDATE", "collection": "travel.hotels", "documentID": "hotel_1",
                    "removedProperties": ["geo.accuracy"],
                ],
            ]
            let update = try await client.post("/updateDatabase", ["database": "db1", "updates": changes])
            #expect(update.status == 200, "\(update.json)")

            let verified = try await client.post(
                "/verifyDocuments", ["database": "db1", "snapshot": .string(snapshotID), "changes": changes]
            ).json
            #expect(verified["result"] == true, "\(verified)")

            // Leaving out a change makes that document differ from the snapshot.
            let partial: JSONValue = .array(Array(try #require(changes.arrayValue).dropFirst()))
            let unverified = try await client.post(
                "/verifyDocuments", ["database": "db1", "snapshot": .string(snapshotID), "changes": partial]
            ).json
            #expect(unverified["result"] == false)
            #expect(
                unverified["description"]?.stringValue?.contains("Document 'airline_1' in 'travel.airlines'") == true)

            let hotel = try await client.post(
                "/getDocument", ["database": "db1", "document": ["collection": "travel.hotels", "id": "hotel_2"]]
            ).json
            #expect(hotel["_id"] == "hotel_2")
            #expect(hotel["photos"]?[0] == .null)
            #expect(hotel["photos"]?[1]?["thumbnail"]?["@type"] == "blob")
            #expect(hotel["photos"]?[1]?["thumbnail"]?["content_type"] == "image/jpeg")
            #expect(hotel["_revs"]?.stringValue?.hasPrefix("1-") == true)
            let airline = try await client.post(
                "/getDocument", ["database": "db1", "document": ["collection": "travel.airlines", "id": "airline_1"]]
            ).json
            #expect(airline["tags"] == ["a", "b", nil, "d"])
            #expect(airline["hub"] == ["city": "Dublin"])
            #expect(airline["iata"] == nil)
            #expect(airline["_revs"]?.stringValue?.hasPrefix("2-") == true)

            let query = try await client.post(
                "/runQuery", ["database": "db1", "query": "SELECT name FROM travel.airlines ORDER BY name"]
            ).json
            #expect(query["results"] == [["name": "Aer Quire Two"]])

            for type in ["compact", "integrityCheck", "optimize", "fullOptimize"] {
                #expect(
                    try await client.post("/performMaintenance", ["database": "db1", "maintenanceType": .string(type)])
                        .status == 200)
            }

            // Replication to a listener serving the peer database.
            let listener = try await client.post(
                "/startListener",
                ["database": "peer", "collections": ["travel.airlines", "travel.hotels"], "disableTLS": true]
            ).json
            let listenerID = try #require(listener["id"]?.stringValue)
            let port = try #require(listener["port"]?.intValue)
            let started = try await client.post(
                "/startReplicator",
                [
                    "config": [
                        "database": "db1", "endpoint": .string("http://127.0.0.1:\(port)/peer"),
                        "replicatorType": "push",
                        "continuous": false, "enableDocumentListener": true,
                        "collections": [["names": ["travel.airlines", "travel.hotels"]]],
                    ],
                    "reset": false,
                ]
            ).json
            let replicatorID = try #require(started["id"]?.stringValue, "\(started)")
            let (status, documents) = try await Self.finalStatus(client, replicator: replicatorID)
            #expect(status["error"] == nil, "\(status)")
            #expect(status["progress"]?["completed"] == true)
            let pushed = Set(documents.compactMap { $0["documentID"]?.stringValue })
            #expect(pushed == ["airline_1", "airline_2", "hotel_1", "hotel_2"])
            #expect(documents.contains { $0["documentID"] == "airline_2" && $0["flags"] == ["deleted"] })
            #expect(try await client.post("/stopReplicator", ["id": .string(replicatorID)]).status == 200)

            let copied = try await client.post(
                "/getAllDocuments", ["database": "peer", "collections": ["travel.airlines", "travel.hotels"]]
            ).json
            // The deletion arrives as a tombstone; the purged airline never leaves db1.
            #expect(copied["travel.airlines"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["airline_1"])
            #expect(
                copied["travel.hotels"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["hotel_1", "hotel_2"])
            let peerHotel = try await client.post(
                "/getDocument", ["database": "peer", "document": ["collection": "travel.hotels", "id": "hotel_2"]]
            ).json
            #expect(peerHotel["photos"]?[1]?["thumbnail"]?["digest"] == hotel["photos"]?[1]?["thumbnail"]?["digest"])
            #expect(try await client.post("/stopListener", ["id": .string(listenerID)]).status == 200)
            #expect(try await client.post("/reset", [:]).status == 200)

            #expect(client.violations == [])
            #expect(client.servers.count == 1)
            #expect(client.successfulEndpoints == Set(TestKitClient.definitions.keys))
        }
    }
}
