import Foundation
import Quire
import QuireTestServer
import Testing

/// Bad requests of every kind get the protocol's error object with a 4xx status, never a crash.
@Suite struct TestServerErrorTests {
    static func expectError(
        _ reply: TestKitClient.Reply, status: Int = 400, mentioning text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reply.status == status, "\(reply.json)", sourceLocation: sourceLocation)
        #expect(reply.json["domain"] == "TESTSERVER", sourceLocation: sourceLocation)
        #expect(reply.json["code"] == .int(Int64(status)), sourceLocation: sourceLocation)
        let message = reply.json["message"]?.stringValue ?? ""
        #expect(message.contains(text), "message: \(message)", sourceLocation: sourceLocation)
    }

    @Test func badRequestsAreAnsweredWithTheErrorShape() async throws {
        try await TestServerTests.withServer { server, client in
            let body = Data(#"{"databases": {"db1": {"collections": ["travel.airlines"]}}}"#.utf8)
            Self.expectError(
                try await client.send(
                    "POST", "/reset", body: body, headers: [TestServerEngine.clientHeader: client.clientID]),
                mentioning: "CBLTest-API-Version header is missing")
            Self.expectError(
                try await client.send(
                    "POST", "/reset", body: body,
                    headers: [TestServerEngine.versionHeader: "1", TestServerEngine.clientHeader: client.clientID]),
                mentioning: "'1' is not supported")
            Self.expectError(
                try await client.send("POST", "/reset", body: body, headers: [TestServerEngine.versionHeader: "2"]),
                mentioning: "CBLTest-Client-ID header is missing")
            Self.expectError(try await client.post("/reset", [:]), mentioning: "was not introduced with /newSession")

            #expect(try await client.post("/newSession", ["id": .string(client.clientID)]).status == 200)
            // The session's own ID again is refused, as Couchbase Lite C's test server refuses it
            // (SessionManager::createSession); the session goes on.
            Self.expectError(
                try await client.post("/newSession", ["id": .string(client.clientID)]),
                mentioning: "Session with ID '\(client.clientID)' already exists")
            #expect(
                try await client.post("/reset", ["databases": ["db1": ["collections": ["travel.airlines"]]]]).status
                    == 200)
            Self.expectError(
                try await client.send("POST", "/reset", body: Data("{not json".utf8)), mentioning: "Invalid JSON")
            Self.expectError(
                try await client.send("POST", "/reset", body: Data("[1]".utf8)), mentioning: "must be a JSON object")
            Self.expectError(
                try await client.post("/getAllDocuments", ["database": "nowhere", "collections": ["travel.airlines"]]),
                mentioning: "database 'nowhere' not found")
            Self.expectError(
                try await client.post(
                    "/reset", ["databases": ["db1": ["dataset": "https://example.com/dbs/4.0/atlantis.cblite2.zip"]]]),
                mentioning: "unknown dataset 'atlantis'")
            Self.expectError(
                try await client.postMalformed(
                    "/reset", ["databases": ["db1": ["dataset": "travel", "collections": ["a.b"]]]]),
                mentioning: "cannot have both")
            Self.expectError(
                try await client.post("/reset", ["databases": ["../up": nil]]), mentioning: "cannot be a database name")

            #expect(
                try await client.post("/reset", ["databases": ["db1": ["collections": ["travel.airlines"]]]]).status
                    == 200)
            for (path, reason) in [
                ("a..b", "a property name is empty"), ("tags[x]", "'[' must be followed by digits"),
                ("[0].a", "it must start with a property name"), ("test.[3]", "a property name must follow '.'"),
                ("a[1", "'[' is never closed"), ("a.", "it ends with '.'"), ("a]", "']' without '['"),
                ("", "it is empty"),
            ] {
                let reply = try await client.post(
                    "/updateDatabase",
                    [
                        "database": "db1",
                        "updates": [
                            [
                                "type": "UPDATE", "collection": "travel.airlines", "documentID": "d1",
                                "updatedProperties": .array([.object([path: 1])]),
                            ]
                        ],
                    ])
                Self.expectError(reply, mentioning: "invalid key path '\(path)': \(reason)")
            }
            // A path through a value of another kind, inside a batch: nothing is written.
            let mixed = try await client.post(
                "/updateDatabase",
                [
                    "database": "db1",
                    "updates": [
                        [
                            "type": "UPDATE", "collection": "travel.airlines", "documentID": "d1",
                            "updatedProperties": [["name": "x"]],
                        ],
                        [
                            "type": "UPDATE", "collection": "travel.airlines", "documentID": "d1",
                            "updatedProperties": [["name.first": "y"]],
                        ],
                    ],
                ])
            Self.expectError(mixed, mentioning: "is a string, not a dictionary")
            Self.expectError(
                try await client.post(
                    "/getDocument", ["database": "db1", "document": ["collection": "travel.airlines", "id": "d1"]]),
                status: 404, mentioning: "document 'd1' not found")
            Self.expectError(
                try await client.postMalformed(
                    "/updateDatabase",
                    [
                        "database": "db1",
                        "updates": [["type": "REPLACE", "collection": "travel.airlines", "documentID": "d1"]],
                    ]),
                mentioning: "must be UPDATE, DELETE or PURGE")
            Self.expectError(
                try await client.post(
                    "/updateDatabase",
                    [
                        "database": "db1",
                        "updates": [
                            [
                                "type": "UPDATE", "collection": "travel.airlines", "documentID": "d1",
                                "updatedBlobs": ["p": "blobs/none.jpg"],
                            ]
                        ],
                    ]),
                mentioning: "blob file 'none.jpg' does not exist")
            Self.expectError(
                try await client.postMalformed("/getAllDocuments", ["database": "db1"]),
                mentioning: "'collections' is missing")
            Self.expectError(
                try await client.postMalformed(
                    "/performMaintenance", ["database": "db1", "maintenanceType": "defragment"]),
                mentioning: "'maintenanceType' must be one of")
            Self.expectError(
                try await client.post(
                    "/startReplicator",
                    ["config": ["database": "db1", "endpoint": "ftp://sync.example.com/db", "collections": []]]),
                mentioning: "must be an http:// or https:// URL")
            Self.expectError(
                try await client.post("/getReplicatorStatus", ["id": "00000000-0000-0000-0000-000000000000"]),
                mentioning: "replicator '00000000-0000-0000-0000-000000000000' not found")
            Self.expectError(
                try await client.post("/startListener", ["database": "db1", "collections": ["travel.airlines"]]),
                mentioning: "TLS is not supported")
            Self.expectError(
                try await client.postMalformed(
                    "/verifyDocuments", ["database": "db1", "snapshot": "nope", "changes": []]),
                mentioning: "snapshot 'nope' not found")
            Self.expectError(
                try await client.post("/runQuery", ["database": "db1", "query": "SELEKT nothing"]).withDomain("CBL"),
                mentioning: "expected SELECT")
            Self.expectError(
                try await client.send("POST", "/startMultipeerReplicator", body: Data("{}".utf8)),
                mentioning: "multipeer replication is not supported")
            Self.expectError(
                try await client.send("POST", "/teleport", body: Data("{}".utf8)), status: 404, mentioning: "/teleport")
            #expect(client.violations == [])
        }
    }
}

extension TestKitClient.Reply {
    /// A store error (domain CBL) seen as the TESTSERVER shape the helper checks, once its
    /// domain is confirmed.
    func withDomain(_ domain: String) -> TestKitClient.Reply {
        #expect(json["domain"]?.stringValue == domain, "\(json)")
        guard case .object(var members) = json else { return self }
        members["domain"] = "TESTSERVER"
        members["code"] = .int(Int64(status))
        return TestKitClient.Reply(
            status: status, headers: headers, body: Data((try? JSONWriter.bytes(.object(members))) ?? []))
    }
}
