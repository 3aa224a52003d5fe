import Foundation
import Quire
import QuireListener
import QuireSync
import QuireTestServer
import Testing

/// `/startReplicator` against a peer served the way `quire serve` serves a database.
@Suite struct TestServerReplicationTests {
    @Test func continuousPullFromAServePeerUntilStopped() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "testserver-peer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let peer = try Database(name: "peer", config: DatabaseConfiguration(directory: folder.path))
        let airlines = try peer.createCollection(name: "airlines", scope: "travel")
        for number in 1...5 {
            try airlines.save(document: MutableDocument(id: "airline_\(number)", data: ["name": "Airline \(number)"]))
        }
        // What `quire serve` runs: every collection of the database, on loopback.
        let served = URLEndpointListener(
            config: URLEndpointListenerConfiguration(
                collections: [try peer.defaultCollection(), airlines], port: 0, networkInterface: "127.0.0.1"))
        try await served.start()
        defer { try? peer.close() }
        let port = try #require(served.port)

        try await TestServerTests.withServer { _, client in
            #expect(try await client.post("/newSession", ["id": .string(client.clientID)]).status == 200)
            #expect(
                try await client.post("/reset", ["databases": ["db1": ["collections": ["travel.airlines"]]]]).status
                    == 200)
            let started = try await client.post(
                "/startReplicator",
                [
                    "config": [
                        "database": "db1", "endpoint": .string("http://127.0.0.1:\(port)/peer"),
                        "replicatorType": "pull",
                        "continuous": true, "collections": [["names": ["travel.airlines"]]],
                    ]
                ]
            ).json
            let id = try #require(started["id"]?.stringValue, "\(started)")
            // A continuous replicator settles at IDLE once it has caught up.
            var caughtUp = false
            for _ in 0..<1200 where !caughtUp {
                let status = try await client.post("/getReplicatorStatus", ["id": .string(id)]).json
                #expect(status["error"] == nil, "\(status)")
                caughtUp = status["activity"] == "IDLE" && status["progress"]?["completed"] == true
                if !caughtUp { try await Task.sleep(for: .milliseconds(25)) }
            }
            #expect(caughtUp)
            let pulled = try await client.post(
                "/getAllDocuments", ["database": "db1", "collections": ["travel.airlines"]]
            ).json
            #expect(pulled["travel.airlines"]?.arrayValue?.count == 5)
            #expect(try await client.post("/stopReplicator", ["id": .string(id)]).status == 200)
            let (stopped, _) = try await TestServerTests.finalStatus(client, replicator: id)
            #expect(stopped["activity"] == "STOPPED")
            #expect(client.violations == [])
        }
        await served.stop()
    }
}
