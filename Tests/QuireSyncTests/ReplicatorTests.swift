import Foundation
import Quire
import Testing

@testable import QuireListener
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
            #expect(
                try remote.collection.document(id: "doc-7")?.revisionID
                    == local.collection.document(id: "doc-7")?.revisionID)
            #expect(first.report?.outcome == .noLocalCheckpoint)

            let second = try await replicate(local.collection, with: remote.url, type: .push)
            #expect(second.status.error == nil)
            #expect(second.pushed.isEmpty)
            #expect(second.report?.outcome == .resumed)
            await remote.stop()
        }

        @Test func disagreeingCheckpointsResumeFromTheLatestCommonSession() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            for index in 1...5 { try remote.save("r\(index)", #"{"n": \#(index)}"#) }
            for index in 1...3 { try local.save("l\(index)", #"{"n": \#(index)}"#) }

            let first = try await replicate(local.collection, with: remote.url)
            #expect(first.status.error == nil)
            #expect(first.report?.outcome == .noLocalCheckpoint)
            // The remote's checkpoint as the first run left it.
            let checkpointID = try #require(first.report?.checkpointID)
            #expect(try remote.collection.localDocumentIDs().contains(checkpointID))
            let afterFirst = try #require(try remote.collection.localDocument(id: checkpointID))
            let firstSession = try #require(afterFirst["session_id"]?.stringValue)

            for index in 6...8 { try remote.save("r\(index)", #"{"n": \#(index)}"#) }
            try local.save("l4", #"{"n": 4}"#)
            let second = try await replicate(local.collection, with: remote.url)
            #expect(second.status.error == nil)
            #expect(second.report?.outcome == .resumed)
            #expect(Set(second.pulled.map(\.id)) == ["r6", "r7", "r8"])
            // Where the first run ended, as the second one resumed from it.
            let firstRemoteSequence = try #require(second.report?.remoteSequence)
            let firstLocalSequence = try #require(second.report?.localSequence)
            #expect(firstRemoteSequence != "0")
            #expect(firstLocalSequence > 0)

            // The remote loses the second run's checkpoint (a restored backup, a failed write):
            // the local checkpoint's newest session is now unknown there.
            try remote.collection.setLocalDocument(id: checkpointID, body: afterFirst)
            let edited = try #require(try remote.collection.document(id: "r1")).toMutable()
            edited.setValue(100, forKey: "n")
            try remote.collection.save(document: edited)
            try remote.save("r9", #"{"n": 9}"#)
            try local.save("l5", #"{"n": 5}"#)

            let third = try await replicate(local.collection, with: remote.url)
            #expect(third.status.error == nil)
            #expect(third.report?.outcome == .resumedFromCommonSession(firstSession))
            #expect(third.report?.remoteSequence == firstRemoteSequence)
            #expect(third.report?.localSequence == firstLocalSequence)
            // Documents both sides already have are not transferred again.
            #expect(Set(third.pulled.map(\.id)) == ["r1", "r9"])
            #expect(third.pushed.map(\.id) == ["l5"])
            for id in ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "l1", "l2", "l3", "l4", "l5"] {
                #expect(
                    try local.collection.document(id: id)?.revisionID == remote.collection.document(id: id)?.revisionID,
                    "\(id)")
            }
            #expect(try local.collection.document(id: "r1")?.int(forKey: "n") == 100)
            #expect(local.collection.count == 14)
            #expect(remote.collection.count == 14)

            // The run wrote a checkpoint both sides agree on again.
            let fourth = try await replicate(local.collection, with: remote.url)
            #expect(fourth.report?.outcome == .resumed)
            #expect(fourth.pulled.isEmpty && fourth.pushed.isEmpty)
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

        @Test func resetStartsFromTheBeginningWithoutTransferringKnownDocuments() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            for index in 0..<12 { try remote.save("doc-\(index)", "{}") }
            _ = try await replicate(local.collection, with: remote.url, type: .pull)
            let again = try await replicate(local.collection, with: remote.url, type: .pull, reset: true)
            #expect(again.status.error == nil)
            #expect(again.report?.outcome == .reset)
            #expect(again.status.progress.total == 12)
            #expect(again.pulled.isEmpty)
            let after = try await replicate(local.collection, with: remote.url, type: .pull)
            #expect(after.report?.outcome == .resumed)
            #expect(after.status.progress.total == 0)
            await remote.stop()
        }

        @Test func oneReplicatorReplicatesSeveralCollectionsEachWithItsCheckpoint() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer(extraCollections: [("store", "items")])
            let localItems = try local.database.createCollection(name: "items", scope: "store")
            let remoteItems = try #require(try remote.database.collection(name: "items", scope: "store"))
            try local.save("note", "{}")
            try local.save("item-1", "{}", in: localItems)
            try remote.store.save("item-2", "{}", in: remoteItems)

            var config = ReplicatorConfiguration(target: URLEndpoint(url: remote.url))
            config.addCollections([local.collection, localItems])
            let replicator = Replicator(config: config)
            let recorder = ReplicationRecorder(replicator)
            replicator.start()
            #expect(try await recorder.waitUntilStopped().error == nil)
            #expect(try remote.collection.document(id: "note") != nil)
            #expect(try remoteItems.document(id: "item-1") != nil)
            #expect(try localItems.document(id: "item-2") != nil)
            #expect(try local.collection.document(id: "item-2") == nil)
            let reports = [local.collection, localItems].compactMap { replicator.checkpointReport(for: $0) }
            #expect(Set(reports.map(\.checkpointID)).count == 2)
            #expect(recorder.pulled.map { "\($0.scope).\($0.collection)/\($0.id)" } == ["store.items/item-2"])
            await remote.stop()
        }
    }
}
