import Foundation
import Quire
import Testing

@testable import QuireSync

extension EndToEnd {
    /// Channels, document IDs, push and pull filters, and other collections.
    @Suite(.serialized) struct ReplicatorFilterTests {
        @Test func channelsLimitWhatIsPulled() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try remote.save("a", #"{"channels": ["news"]}"#)
            try remote.save("b", #"{"channels": ["sports"]}"#)
            try remote.save("c", #"{"channels": "news"}"#)
            let outcome = try await replicate(
                local.collection, with: remote.url, type: .pull,
                collectionConfig: CollectionConfiguration(channels: ["news"]))
            #expect(outcome.status.error == nil)
            #expect(Set(outcome.pulled.map(\.id)) == ["a", "c"])
            #expect(try local.collection.document(id: "b") == nil)
            await remote.stop()
        }

        @Test func aServerSideFilterGoesIntoTheChangesRequestAndTheCheckpointID() async throws {
            let local = try SyncTestDatabase()
            let peer = try ScriptedPeer { request in
                switch (request.method, request.path) {
                case ("GET", "/db"): return .json(200, #"{"db_name":"db","update_seq":0}"#)
                case ("GET", let path) where path.hasPrefix("/db/_local/"): return .json(404, #"{"error":"not_found"}"#)
                case ("PUT", let path) where path.hasPrefix("/db/_local/"):
                    return .json(201, #"{"ok":true,"rev":"0-1"}"#)
                case ("GET", "/db/_changes"): return .json(200, #"{"results":[],"last_seq":0}"#)
                default: return .json(404, #"{"error":"not_found"}"#)
                }
            }
            func run(_ filter: String?, _ parameters: [String: String]?) async throws -> (
                query: [String: String], checkpointID: String
            ) {
                var options = CollectionConfiguration()
                options.filter = filter
                options.filterParameters = parameters
                let before = peer.requests.count
                let outcome = try await replicate(
                    local.collection, with: peer.url(), type: .pull, collectionConfig: options)
                #expect(outcome.status.error == nil)
                let changes = try #require(peer.requests.dropFirst(before).first { $0.path == "/db/_changes" })
                var query: [String: String] = [:]
                for item in URLComponents(string: "?" + changes.query)?.queryItems ?? [] {
                    query[item.name] = item.value ?? ""
                }
                return (query, try #require(outcome.report?.checkpointID))
            }

            let unfiltered = try await run(nil, nil)
            #expect(unfiltered.query["filter"] == nil)
            let filtered = try await run("app/by_type", ["type": "note", "owner": "ann"])
            #expect(filtered.query["filter"] == "app/by_type")
            #expect(filtered.query["type"] == "note")
            #expect(filtered.query["owner"] == "ann")
            #expect(filtered.query["since"] == "0")
            let otherValue = try await run("app/by_type", ["type": "task", "owner": "ann"])
            #expect(otherValue.query["type"] == "task")
            let otherFilter = try await run("app/by_owner", ["type": "note", "owner": "ann"])
            #expect(otherFilter.query["filter"] == "app/by_owner")
            let again = try await run("app/by_type", ["type": "note", "owner": "ann"])

            // The filter and each parameter value are part of the checkpoint ID; the same
            // settings give the same ID.
            let ids = [
                unfiltered.checkpointID, filtered.checkpointID, otherValue.checkpointID, otherFilter.checkpointID,
            ]
            #expect(Set(ids).count == 4)
            #expect(again.checkpointID == filtered.checkpointID)
            peer.stop()
        }

        @Test func documentIDsLimitBothDirections() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try local.save("keep-local", "{}")
            try local.save("skip-local", "{}")
            try remote.save("keep-remote", "{}")
            try remote.save("skip-remote", "{}")
            let outcome = try await replicate(
                local.collection, with: remote.url,
                collectionConfig: CollectionConfiguration(documentIDs: ["keep-local", "keep-remote"]))
            #expect(outcome.status.error == nil)
            #expect(outcome.pushed.map(\.id) == ["keep-local"])
            #expect(outcome.pulled.map(\.id) == ["keep-remote"])
            #expect(try remote.collection.document(id: "skip-local") == nil)
            #expect(try local.collection.document(id: "skip-remote") == nil)
            await remote.stop()
        }

        @Test func pushAndPullFiltersSeeDocumentsAndFlags() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try local.save("public-1", #"{"public": true}"#)
            try local.save("private-1", #"{"public": false}"#)
            try remote.save("wanted", #"{"wanted": true}"#)
            try remote.save("unwanted", #"{"wanted": false}"#)
            let config = CollectionConfiguration(
                pushFilter: { document, _ in document.boolean(forKey: "public") },
                pullFilter: { document, flags in flags.contains(.deleted) || document.boolean(forKey: "wanted") })
            let outcome = try await replicate(local.collection, with: remote.url, collectionConfig: config)
            #expect(outcome.status.error == nil)
            #expect(try remote.collection.document(id: "public-1") != nil)
            #expect(try remote.collection.document(id: "private-1") == nil)
            #expect(try local.collection.document(id: "wanted") != nil)
            #expect(try local.collection.document(id: "unwanted") == nil)

            // A deletion reaches the pull filter flagged as one.
            try remote.collection.delete(document: try #require(try remote.collection.document(id: "wanted")))
            let second = try await replicate(local.collection, with: remote.url, type: .pull, collectionConfig: config)
            #expect(second.pulled.map(\.flags) == [.deleted])
            #expect(try local.collection.document(id: "wanted") == nil)
            await remote.stop()
        }

        @Test func otherCollectionsUseTheirKeyspace() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer(extraCollections: [("store", "items")])
            let mine = try local.database.createCollection(name: "items", scope: "store")
            try local.save("item-1", #"{"price": 3}"#, in: mine)
            let outcome = try await replicate(mine, with: remote.url)
            #expect(outcome.status.error == nil)
            let theirs = try #require(try remote.database.collection(name: "items", scope: "store"))
            #expect(try theirs.document(id: "item-1")?.int(forKey: "price") == 3)
            #expect(try remote.collection.document(id: "item-1") == nil)
            await remote.stop()
        }
    }
}
