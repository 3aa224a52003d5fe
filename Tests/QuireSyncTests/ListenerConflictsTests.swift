import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// What a listener does with a pushed revision that conflicts: CouchDB keeps it (the default
/// for a folder of databases), Couchbase Lite's listener refuses it (the default for served
/// collections); ``URLEndpointListenerConfiguration/conflicts`` chooses.
@Suite struct ListenerConflictsTests {
    /// PouchDB 2.2.3's push of a conflicting edit: two replicas share `1-aaa`; the first
    /// pushes its edit `2-bbb`, the second asks `_revs_diff` about its own edit `2-ccc` and
    /// sends it with `new_edits: false`. CouchDB answers 201 with no per-document error and
    /// keeps both branches.
    private func pushTwoEdits(_ client: TestHTTPClient, path: String) async throws -> TestHTTPClient.Reply {
        let base: JSONValue = ["_id": "doc", "_rev": "1-aaa", "_revisions": ["start": 1, "ids": ["aaa"]], "v": 0]
        let first: JSONValue = [
            "_id": "doc", "_rev": "2-bbb", "_revisions": ["start": 2, "ids": ["bbb", "aaa"]], "v": 1,
        ]
        let second: JSONValue = [
            "_id": "doc", "_rev": "2-ccc", "_revisions": ["start": 2, "ids": ["ccc", "aaa"]], "v": 2,
        ]
        for docs in [[base], [first]] {
            let pushed = try await client.post("\(path)/_bulk_docs", ["docs": .array(docs), "new_edits": false])
            #expect(pushed.status == 201)
        }
        let diff = try await client.post("\(path)/_revs_diff", ["doc": ["2-ccc"]])
        #expect(diff.json["doc"]?["missing"] == ["2-ccc"])
        return try await client.post("\(path)/_bulk_docs", ["docs": [second], "new_edits": false])
    }

    @Test func aFolderKeepsAPushedConflictAsCouchDBDoes() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("quire-conflicts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        for rule in [URLEndpointListenerConfiguration.Conflicts.keep, .refuse] {
            let folder = try ListenerDatabaseFolder(directory: data.path, createsDatabases: true, allowsDelete: true)
            var config = URLEndpointListenerConfiguration(databaseFolder: folder, networkInterface: "127.0.0.1")
            #expect(config.conflicts == .keep)
            config.conflicts = rule
            let listener = URLEndpointListener(config: config)
            try await listener.start()
            let client = TestHTTPClient(baseURL: URL(string: "http://127.0.0.1:\(listener.port ?? 0)")!)
            let name = "pouch-\(rule.rawValue)"
            #expect(try await client.send("PUT", "/\(name)").status == 201)
            let pushed = try await pushTwoEdits(client, path: "/\(name)")
            let current = try await client.get("/\(name)/doc?conflicts=true")
            await listener.stop()
            try folder.close()
            if rule == .keep {
                #expect(pushed.status == 201)
                #expect(pushed.json == [["ok": true, "id": "doc", "rev": "2-ccc"]])
                // CouchDB's winner: same generation, the higher revision ID.
                #expect(current.json["_rev"] == "2-ccc")
                #expect(current.json["_conflicts"] == ["2-bbb"])
            } else {
                #expect(pushed.status == 201)
                #expect(pushed.json.arrayValue?.first?["error"] == "conflict")
                #expect(current.json["_rev"] == "2-bbb")
                #expect(current.json["_conflicts"] == nil)
            }
        }
    }

    @Test func servedCollectionsRefuseUnlessToldToKeep() async throws {
        try await ListenerHarness.with { harness async throws in
            #expect(harness.listener.config.conflicts == .refuse)
            let pushed = try await pushTwoEdits(harness.client, path: "/db")
            #expect(pushed.json.arrayValue?.first?["error"] == "conflict")
            let single = try await harness.client.put(
                "/db/doc?new_edits=false", ["_rev": "2-ddd", "_revisions": ["start": 2, "ids": ["ddd", "aaa"]]])
            #expect(single.status == 409)
        }
        try await ListenerHarness.with(adjust: { $0.conflicts = .keep }) { harness async throws in
            let pushed = try await pushTwoEdits(harness.client, path: "/db")
            #expect(pushed.json == [["ok": true, "id": "doc", "rev": "2-ccc"]])
            let single = try await harness.client.put(
                "/db/doc?new_edits=false", ["_rev": "2-ddd", "_revisions": ["start": 2, "ids": ["ddd", "aaa"]]])
            #expect(single.status == 201)
            let leaves = try harness.collection.leaves(id: "doc").filter { !$0.isDeleted }.map(\.revisionID)
            #expect(Set(leaves) == ["2-bbb", "2-ccc", "2-ddd"])
        }
    }
}
