import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

extension EndToEnd {
    /// Continuous replication, authentication, a peer that dies mid-batch, pending documents.
    @Suite(.serialized) struct ReplicatorLifecycleTests {
        @Test func continuousReplicationFollowsChangesBothWaysUntilStopped() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            var config = ReplicatorConfiguration(target: URLEndpoint(url: remote.url))
            config.continuous = true
            // Long polls of 5 s, newlines every 1.5 s, a request timeout of 3 s.
            config.heartbeat = 5
            config.requestTimeout = 3
            config.addCollection(local.collection)
            let replicator = Replicator(config: config)
            let recorder = ReplicationRecorder(replicator)
            replicator.start()
            _ = try await recorder.wait { $0.activity == .idle }
            // A quiet long poll outlasting the request timeout stays up, kept alive by heartbeats.
            try await Task.sleep(for: .seconds(3.5))
            #expect(!recorder.activities.contains(.offline))

            try local.save("from-local", #"{"n": 1}"#)
            try await eventually("the local change on the remote") {
                try remote.collection.document(id: "from-local") != nil
            }
            try remote.save("from-remote", #"{"n": 2}"#)
            try await eventually("the remote change locally") {
                try local.collection.document(id: "from-remote") != nil
            }
            let edited = try #require(try remote.collection.document(id: "from-local")).toMutable()
            edited.setValue(3, forKey: "n")
            try remote.collection.save(document: edited)
            try await eventually("the edit locally") {
                try local.collection.document(id: "from-local")?.int(forKey: "n") == 3
            }

            replicator.stop()
            let stopped = try await recorder.waitUntilStopped()
            #expect(stopped.error == nil)
            #expect(recorder.activities.contains(.busy))
            #expect(replicator.status.activity == .stopped)
            await remote.stop()
        }

        @Test func continuousReplicationGoesOfflineAndComesBack() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            var config = ReplicatorConfiguration(target: URLEndpoint(url: remote.url))
            config.continuous = true
            config.heartbeat = 1
            config.requestTimeout = 2
            config.maxAttemptWaitTime = 0.2
            config.addCollection(local.collection)
            let replicator = Replicator(config: config)
            let recorder = ReplicationRecorder(replicator)
            replicator.start()
            _ = try await recorder.wait { $0.activity == .idle }

            await remote.stop()
            let offline = try await recorder.wait(timeout: 20) { $0.activity == .offline }
            #expect(offline.error?.domain == .network)
            try await remote.restart()
            try remote.save("after", #"{"n": 1}"#)
            try local.save("mine", #"{"n": 2}"#)
            try await eventually("the remote change after the outage") {
                try local.collection.document(id: "after") != nil
            }
            try await eventually("the local change after the outage") {
                try remote.collection.document(id: "mine") != nil
            }
            #expect(replicator.status.error == nil)

            replicator.stop()
            #expect(try await recorder.waitUntilStopped().error == nil)
            // It connects first, and connects again after the outage.
            let activities = recorder.activities
            #expect(activities.first == .connecting, "\(activities)")
            let firstOffline = try #require(activities.firstIndex(of: .offline))
            #expect(activities[firstOffline...].contains(.connecting), "\(activities)")
            await remote.stop()
        }

        @Test func basicAuthenticationIsSentAndRefusalStops() async throws {
            let local = try SyncTestDatabase()
            let store = try SyncTestDatabase(name: "secured")
            let listener = URLEndpointListener(
                config: URLEndpointListenerConfiguration(
                    collections: [store.collection], networkInterface: "127.0.0.1",
                    authenticator: ListenerPasswordAuthenticator { $0 == "sync" && $1 == "secret" }))
            try await listener.start()
            let url = try #require(URL(string: "http://127.0.0.1:\(listener.port ?? 0)/secured"))
            try local.save("doc", "{}")

            let refused = try await replicate(local.collection, with: url) {
                $0.authenticator = BasicAuthenticator(username: "sync", password: "wrong")
            }
            #expect(refused.status.error?.code == .httpAuthRequired)
            #expect(!refused.activities.contains(.offline))

            let accepted = try await replicate(local.collection, with: url) {
                $0.authenticator = BasicAuthenticator(username: "sync", password: "secret")
            }
            #expect(accepted.status.error == nil)
            #expect(try store.collection.document(id: "doc") != nil)
            await listener.stop()
        }

        @Test func unreachablePeerGoesOfflineThenStopsAfterTheAttempts() async throws {
            let local = try SyncTestDatabase()
            let peer = try ScriptedPeer { _ in .drop }
            let url = peer.url()
            peer.stop()
            let outcome = try await replicate(local.collection, with: url) {
                $0.maxAttempts = 3
                $0.maxAttemptWaitTime = 0.01
            }
            #expect(outcome.activities.filter { $0 == .offline }.count == 2)
            #expect(outcome.status.error?.domain == .network)
            #expect(outcome.status.error?.code == .networkError)
        }

        @Test func peerDyingMidBatchIsRetriedAndResumedWithoutDuplicates() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            let count = 2000
            try remote.database.inBatch {
                for index in 0..<count { try remote.save(String(format: "doc-%05d", index), #"{"n": \#(index)}"#) }
            }
            var config = ReplicatorConfiguration(target: URLEndpoint(url: remote.url))
            config.replicatorType = .pull
            config.maxAttemptWaitTime = 0.2
            config.addCollection(local.collection)
            let replicator = Replicator(config: config)
            let recorder = ReplicationRecorder(replicator)
            let stopping = Task { @Sendable in
                // Past two checkpoints (200 changes each), well before the end.
                try await eventually("a few pulled batches") { recorder.pulled.count >= 450 }
                await remote.stop()
                _ = try await recorder.wait { $0.activity == .offline }
                #expect(local.collection.count < UInt64(count))
                try await remote.restart()
            }
            replicator.start()
            try await stopping.value
            let status = try await recorder.waitUntilStopped(timeout: 60)
            #expect(status.error == nil)
            #expect(recorder.activities.contains(.offline))
            #expect(local.collection.count == UInt64(count))
            let pulled = recorder.pulled.map(\.id)
            #expect(pulled.count == count)
            #expect(Set(pulled).count == count)
            #expect(replicator.checkpointReport(for: local.collection)?.isResumed == true)
            await remote.stop()
        }

        @Test func pendingDocumentsAreThoseNotPushedYet() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try local.save("a", #"{"keep": true}"#)
            try local.save("b", #"{"keep": false}"#)
            var config = ReplicatorConfiguration(target: URLEndpoint(url: remote.url))
            config.replicatorType = .push
            config.addCollection(
                local.collection,
                config: CollectionConfiguration(pushFilter: { document, _ in document.boolean(forKey: "keep") }))
            let replicator = Replicator(config: config)
            #expect(try replicator.pendingDocumentIds(collection: local.collection) == ["a"])
            #expect(try replicator.isDocumentPending("a", collection: local.collection))

            let recorder = ReplicationRecorder(replicator)
            replicator.start()
            _ = try await recorder.waitUntilStopped()
            #expect(try replicator.pendingDocumentIds(collection: local.collection).isEmpty)
            try local.save("c", #"{"keep": true}"#)
            #expect(try replicator.pendingDocumentIds(collection: local.collection) == ["c"])

            var pullOnly = config
            pullOnly.replicatorType = .pull
            #expect(throws: QuireError.self) {
                try Replicator(config: pullOnly).pendingDocumentIds(collection: local.collection)
            }
            await remote.stop()
        }
    }
}
