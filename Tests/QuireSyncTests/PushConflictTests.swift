import Foundation
import Quire
import Testing

@testable import QuireSync

extension EndToEnd {
    /// A pushed revision that conflicts with the listener's is refused per document with
    /// httpConflict, as Couchbase Lite's passive peer refuses it
    /// (ReplicatorTest.testDocumentReplicationEventWithPushConflict).
    @Suite(.serialized) struct PushConflictTests {
        // covers: ReplicatorTest.testDocumentReplicationEventWithPushConflict
        @Test func aConflictingPushIsRefusedForThatDocumentOnly() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            _ = try local.save("doc1", #"{"species": "Tiger", "pattern": "Star"}"#)
            _ = try local.save("fine", #"{}"#)
            _ = try remote.save("doc1", #"{"species": "Tiger", "pattern": "Striped"}"#)
            let outcome = try await replicate(local.collection, with: remote.url, type: .push)
            #expect(outcome.status.error == nil)
            let refused = outcome.pushed.filter { $0.id == "doc1" }
            #expect(refused.count == 1)
            #expect(refused.first?.error?.code == .httpConflict)
            #expect(refused.first?.flags == [])
            #expect(outcome.pushed.filter { $0.error == nil }.map(\.id) == ["fine"])
            #expect(try remote.collection.document(id: "doc1")?.string(forKey: "pattern") == "Striped")
            #expect(try remote.collection.conflictingRevisionIDs(id: "doc1").isEmpty)
            await remote.stop()
        }

        @Test func aConflictResolvedByPullingReachesTheListener() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            _ = try local.save("doc1", #"{"side": "local"}"#)
            _ = try remote.save("doc1", #"{"side": "remote"}"#)
            let outcome = try await replicate(local.collection, with: remote.url, type: .pushAndPull)
            #expect(outcome.status.error == nil)
            let again = try await replicate(local.collection, with: remote.url, type: .pushAndPull)
            #expect(again.status.error == nil)
            let mine = try #require(try local.collection.revisionInfo(id: "doc1"))
            let theirs = try #require(try remote.collection.revisionInfo(id: "doc1"))
            #expect(mine.revisionID == theirs.revisionID)
            #expect(try remote.collection.conflictingRevisionIDs(id: "doc1").isEmpty)
            await remote.stop()
        }
    }
}
