import Foundation
import Quire
import Testing
@testable import QuireSync

extension EndToEnd {
    /// End-to-end replication between two Quire databases through a ``URLEndpointListener`` on
    /// loopback.
    @Suite(.serialized) struct ReplicatorTests {
        @Test func pushCopiesDocumentsAndASecondRunTransfersNothing() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            for index in 0..<25 { try local.save("doc-\(index)", #"{"n": \#(index)}"#) }

            let first = try await replicate(local.collection, with: remote.url, type: .push)
            #expect(first.status.error == nil)
            #expect(first.pushed.count == 25)
            #expect(remote.collection.count == 25)
            #expect(try remote.collection.document(id: "doc-7")?.int(forKey: "n") == 7)
            #expect(try remote.collection.document(id: "doc-7")?.revisionID == local.collection.document(id: "doc-7")?.revisionID)
            #expect(first.report?.outcome == .noLocalCheckpoint)

            let second = try await replicate(local.collection, with: remote.url, type: .push)
            #expect(second.status.error == nil)
            #expect(second.pushed.isEmpty)
            #expect(second.report?.outcome == .resumed)
            await remote.stop()
        }

        @Test func pullCopiesDocumentsWithHistoryAndResumes() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            for index in 0..<30 { try remote.save("doc-\(index)", #"{"n": \#(index)}"#) }
            let edited = try #require(try remote.collection.document(id: "doc-3")).toMutable()
            edited.setValue("changed", forKey: "state")
            try remote.collection.save(document: edited)

            let first = try await replicate(local.collection, with: remote.url, type: .pull)
            #expect(first.status.error == nil)
            #expect(first.pulled.count == 30)
            #expect(local.collection.count == 30)
            let info = try #require(try local.collection.revisionInfo(id: "doc-3"))
            #expect(info.revisionID == edited.revisionID)
            #expect(info.history.count == 1)

            try remote.save("late", #"{"late": true}"#)
            let second = try await replicate(local.collection, with: remote.url, type: .pull)
            #expect(second.pulled.map(\.id) == ["late"])
            #expect(second.report?.outcome == .resumed)
            #expect(second.status.progress.completed == second.status.progress.total)
            await remote.stop()
        }

        @Test func pushAndPullMergesBothSidesWithDeletesAndWithoutPurges() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try local.save("mine", #"{"side": "local"}"#)
            try local.save("gone", #"{"side": "local"}"#)
            try remote.save("theirs", #"{"side": "remote"}"#)
            _ = try await replicate(local.collection, with: remote.url)
            #expect(local.collection.count == 3)
            #expect(remote.collection.count == 3)

            // A deletion travels; a purge does not.
            try local.collection.delete(document: try #require(try local.collection.document(id: "gone")))
            try remote.collection.purge(id: "theirs")
            let outcome = try await replicate(local.collection, with: remote.url)
            #expect(outcome.status.error == nil)
            #expect(try remote.collection.document(id: "gone") == nil)
            #expect(try remote.collection.revisionInfo(id: "gone")?.isDeleted == true)
            #expect(try local.collection.document(id: "theirs") != nil)
            #expect(try remote.collection.document(id: "theirs") == nil)
            #expect(outcome.pushed.map(\.id) == ["gone"])
            #expect(outcome.pushed.first?.flags == .deleted)
            await remote.stop()
        }
    }
}
