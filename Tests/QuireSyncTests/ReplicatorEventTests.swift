import Foundation
import Quire
import Testing

@testable import QuireSync

extension EndToEnd {
    /// Couchbase Lite's ReplicatorTest run between two Quire databases through a listener on
    /// loopback (Couchbase Lite runs them local to local, an Enterprise feature): document
    /// events, filters on deletions and access removals, checkpoints, retries and listeners.
    @Suite(.serialized) struct ReplicatorEventTests {
        private func tigers(_ store: SyncTestDatabase, _ patterns: [String: String], blob: Blob? = nil) throws {
            for (id, pattern) in patterns.sorted(by: { $0.key < $1.key }) {
                let document = MutableDocument(id: id)
                document.setValue("Tiger", forKey: "species")
                document.setValue(pattern, forKey: "pattern")
                if let blob { document.setValue(blob, forKey: "photo") }
                try store.collection.save(document: document)
            }
        }

        // covers: ReplicatorTest.testEmptyPush
        @Test func pushingAnEmptyCollectionStopsWithoutErrorOrEvents() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            let runner = ReplicatorRunner(replicatorConfig([local.collection], remote.url, type: .push))
            let status = try await runner.run()
            #expect(status.error == nil)
            #expect(runner.activities.contains(.connecting))
            #expect(runner.pushed.isEmpty)
            #expect(remote.collection.count == 0)
            await remote.stop()
        }

        // covers: ReplicatorTest.testStartWithCheckpoint
        @Test func aPullResumesFromItsCheckpointAndAResetPullsPurgedDocumentsAgain() async throws {
            try await resumesAndResets(continuous: false)
        }

        // covers: ReplicatorTest.testStartWithResetCheckpointContinuous
        @Test func aContinuousPullResumesFromItsCheckpointAndAResetPullsAgain() async throws {
            try await resumesAndResets(continuous: true)
        }

        private func resumesAndResets(continuous: Bool) async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try tigers(local, ["doc1": "Hobbes", "doc2": "striped"])
            #expect(
                try await ReplicatorRunner(
                    replicatorConfig([local.collection], remote.url, type: .push, continuous: continuous)
                ).run().error == nil)
            let pull = ReplicatorRunner(
                replicatorConfig([local.collection], remote.url, type: .pull, continuous: continuous))
            #expect(try await pull.run().error == nil)
            #expect(local.collection.count == 2)
            try local.collection.purge(id: "doc1")
            try local.collection.purge(id: "doc2")
            #expect(local.collection.count == 0)

            // Nothing changed on the remote since the checkpoint: nothing comes back.
            #expect(try await pull.run().error == nil)
            #expect(local.collection.count == 0)
            #expect(pull.replicator.checkpointReport(for: local.collection)?.outcome == .resumed)

            #expect(try await pull.run(reset: true).error == nil)
            #expect(local.collection.count == 2)
            #expect(pull.replicator.checkpointReport(for: local.collection)?.outcome == .reset)
            await remote.stop()
        }

        // covers: ReplicatorTest.testDocumentReplicationEvent
        @Test func eachPushedDocumentIsReportedUntilTheListenerIsRemoved() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try tigers(local, ["doc1": "Hobbes", "doc2": "Striped"])
            let replicator = Replicator(config: replicatorConfig([local.collection], remote.url, type: .push))
            let seen = Locked<[(Bool, ReplicatedDocument)]>([])
            let token = replicator.addDocumentReplicationListener { replication in
                seen.withLock { $0 += replication.documents.map { (replication.isPush, $0) } }
            }
            let runner = ReplicatorRunner(replicator)
            #expect(try await runner.run().error == nil)
            var documents = seen.withLock { $0 }
            #expect(documents.map(\.1.id).sorted() == ["doc1", "doc2"])
            #expect(documents.allSatisfy { $0.0 && $0.1.error == nil && $0.1.flags.isEmpty })

            try tigers(local, ["doc3": "Star"])
            #expect(try await runner.run().error == nil)
            documents = seen.withLock { $0 }
            #expect(documents.count == 3)
            #expect(documents.last?.1.id == "doc3")
            #expect(documents.last?.1.error == nil)
            #expect(documents.last?.1.flags == [])

            try tigers(local, ["doc4": "WhiteStriped"])
            token.remove()
            #expect(try await runner.run().error == nil)
            // The runner's own listener saw doc4, so it was reported, but not to the removed one.
            #expect(runner.pushed.map(\.id).contains("doc4"))
            #expect(seen.withLock { $0.count } == 3)
            #expect(try remote.collection.document(id: "doc4") != nil)
            await remote.stop()
        }

        // covers: ReplicatorTest.testRemoveDocumentReplicationListener
        @Test func aListenerRemovedBeforeTheStartHearsNothing() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try tigers(local, ["doc1": "Hobbes"])
            let replicator = Replicator(config: replicatorConfig([local.collection], remote.url, type: .push))
            let heard = Locked(0)
            let token = replicator.addDocumentReplicationListener { _ in heard.withLock { $0 += 1 } }
            token.remove()
            let runner = ReplicatorRunner(replicator)
            #expect(try await runner.run().error == nil)
            #expect(runner.pushed.map(\.id) == ["doc1"])
            #expect(heard.withLock { $0 } == 0)
            await remote.stop()
        }

        // covers: ReplicatorTest.testDocumentReplicationEventWithPullConflict
        @Test func aPulledConflictIsOneEventWithoutError() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try tigers(local, ["doc1": "Star"])
            let other = MutableDocument(id: "doc1")
            other.setValue("Tiger", forKey: "species")
            other.setValue("Striped", forKey: "pattern")
            try remote.collection.save(document: other)
            let runner = ReplicatorRunner(replicatorConfig([local.collection], remote.url, type: .pull))
            #expect(try await runner.run().error == nil)
            #expect(runner.pulled.count == 1)
            #expect(runner.pulled.first?.id == "doc1")
            #expect(runner.pulled.first?.error == nil)
            #expect(runner.pulled.first?.flags == [])
            #expect(try local.collection.conflictingRevisionIDs(id: "doc1").isEmpty)
            await remote.stop()
        }

        // covers: ReplicatorTest.testSingleShotPushFilter
        @Test func aPushFilterSeesContentBlobsAndDeletionsAndSkipsWhatItRefuses() async throws {
            try await pushFilter(continuous: false)
        }

        // covers: ReplicatorTest.testContinuousPushFilter
        @Test func aContinuousPushFilterSeesTheSame() async throws { try await pushFilter(continuous: true) }

        private func pushFilter(continuous: Bool) async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            let content = Data("I'm a tiger.".utf8)
            try tigers(
                local, ["doc1": "Hobbes", "doc2": "Striped", "doc3": "Star"],
                blob: Blob(contentType: "text/plain", data: content))
            try local.collection.delete(document: try #require(try local.collection.document(id: "doc3")))
            let seen = SeenIDs()
            let problems = SeenIDs()
            var collectionConfig = CollectionConfiguration()
            collectionConfig.pushFilter = { document, flags in
                let deleted = flags.contains(.deleted)
                if deleted != (document.id == "doc3") { problems.add("\(document.id): deleted \(deleted)") }
                if deleted {
                    if !document.toDictionary().isEmpty { problems.add("\(document.id): body of a deletion") }
                } else if document.string(forKey: "species") != "Tiger" || document.value(forKey: "pattern") == nil
                    || document.blob(forKey: "photo")?.content != content
                {
                    problems.add("\(document.id): content")
                }
                seen.add(document.id)
                return document.id != "doc2"
            }
            let runner = ReplicatorRunner(
                replicatorConfig(
                    [local.collection], remote.url, type: .push, continuous: continuous, config: collectionConfig))
            #expect(try await runner.run().error == nil)
            #expect(problems.all.isEmpty)
            #expect(seen.set == ["doc1", "doc2", "doc3"])
            #expect(try remote.collection.document(id: "doc1") != nil)
            #expect(try remote.collection.document(id: "doc1")?.blob(forKey: "photo")?.content == content)
            #expect(try remote.collection.document(id: "doc2") == nil)
            #expect(try remote.collection.document(id: "doc3") == nil)
            await remote.stop()
        }

        // covers: ReplicatorTest.testPullFilter
        @Test func aPullFilterSeesContentBlobMetadataAndDeletionsAndSkipsWhatItRefuses() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            // A local document, so the first pull also brings deletions.
            try local.save("doc0", #"{"species": "Cat"}"#)
            let content = Data("I'm a tiger.".utf8)
            try tigers(
                remote.store, ["doc1": "Hobbes", "doc2": "Striped", "doc3": "Star"],
                blob: Blob(contentType: "text/plain", data: content))
            try remote.collection.delete(document: try #require(try remote.collection.document(id: "doc3")))
            let seen = SeenIDs()
            let problems = SeenIDs()
            var collectionConfig = CollectionConfiguration()
            collectionConfig.pullFilter = { document, flags in
                let deleted = flags.contains(.deleted)
                if deleted != (document.id == "doc3") { problems.add("\(document.id): deleted \(deleted)") }
                if deleted {
                    if !document.toDictionary().isEmpty { problems.add("\(document.id): body of a deletion") }
                } else if document.string(forKey: "species") != "Tiger" || document.value(forKey: "pattern") == nil
                    || document.blob(forKey: "photo") == nil
                {
                    problems.add("\(document.id): content")
                }
                seen.add(document.id)
                return document.id != "doc2"
            }
            let runner = ReplicatorRunner(
                replicatorConfig([local.collection], remote.url, type: .pull, config: collectionConfig))
            #expect(try await runner.run().error == nil)
            #expect(problems.all.isEmpty)
            #expect(seen.set == ["doc1", "doc2", "doc3"])
            #expect(try local.collection.document(id: "doc1")?.blob(forKey: "photo")?.content == content)
            #expect(try local.collection.document(id: "doc2") == nil)
            #expect(try local.collection.document(id: "doc3") == nil)
            await remote.stop()
        }

        // covers: ReplicatorTest.testPushAndForget
        @Test func aDocumentExpiredFromTheReplicationListenerIsPurgedAfterItsPush() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try tigers(local, ["doc1": "Hobbes"])
            let purged = Locked(false)
            let collection = local.collection
            let changeToken = collection.addDocumentChangeListener(id: "doc1") { change in
                if change.documentID == "doc1", (try? collection.document(id: "doc1")) == .some(nil) {
                    purged.withLock { $0 = true }
                }
            }
            #expect(collection.count == 1)
            #expect(remote.collection.count == 0)
            let replicator = Replicator(config: replicatorConfig([collection], remote.url, type: .push))
            let replicationToken = replicator.addDocumentReplicationListener { _ in
                try? collection.setDocumentExpiration(id: "doc1", expiration: Date())
            }
            #expect(try await ReplicatorRunner(replicator).run().error == nil)
            try await eventually(timeout: 120, "doc1 purged by its expiration") { purged.withLock { $0 } }
            replicationToken.remove()
            changeToken.remove()
            #expect(collection.count == 0)
            #expect(remote.collection.count == 1)
            await remote.stop()
        }

        // covers: ReplicatorTest.testPullRemovedDocWithFilterSingleShot
        @Test func aPullFilterDecidesWhichAccessRemovalsPurge() async throws {
            try await accessRemovals(continuous: false)
        }

        // covers: ReplicatorTest.testPullRemovedDocWithFilterContinuous
        @Test func aContinuousPullFilterDecidesWhichAccessRemovalsPurge() async throws {
            try await accessRemovals(continuous: true)
        }

        private func accessRemovals(continuous: Bool) async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try remote.save("doc1", #"{"name": "pass"}"#)
            try remote.save("pass", #"{"name": "pass"}"#)
            let removals = SeenIDs()
            var collectionConfig = CollectionConfiguration()
            collectionConfig.pullFilter = { document, flags in
                if flags.contains(.accessRemoved) {
                    removals.add(document.id)
                    return document.id == "pass"
                }
                return document.string(forKey: "name") == "pass"
            }
            let runner = ReplicatorRunner(
                replicatorConfig(
                    [local.collection], remote.url, type: .pull, continuous: continuous, config: collectionConfig))
            #expect(try await runner.run().error == nil)
            #expect(removals.all.isEmpty)
            #expect(try local.collection.document(id: "doc1") != nil)
            #expect(try local.collection.document(id: "pass") != nil)

            for id in ["doc1", "pass"] {
                let removed = try #require(try remote.collection.document(id: id)).toMutable()
                try removed.setJSON(#"{"_removed": true}"#)
                try remote.collection.save(document: removed)
            }
            #expect(try await runner.run().error == nil)
            #expect(removals.set == ["doc1", "pass"])
            #expect(try local.collection.document(id: "doc1") != nil)
            #expect(try local.collection.document(id: "pass") == nil)
            await remote.stop()
        }

        // covers: ReplicatorTest.testPushDeletedDocWithFilterSingleShot
        @Test func aPushFilterDecidesWhichDeletionsArePushed() async throws {
            try await filteredDeletions(.push, continuous: false)
        }

        // covers: ReplicatorTest.testPushDeletedDocWithFilterContinuous
        @Test func aContinuousPushFilterDecidesWhichDeletionsArePushed() async throws {
            try await filteredDeletions(.push, continuous: true)
        }

        // covers: ReplicatorTest.testPullDeletedDocWithFilterSingleShot
        @Test func aPullFilterDecidesWhichDeletionsArePulled() async throws {
            try await filteredDeletions(.pull, continuous: false)
        }

        // covers: ReplicatorTest.testPullDeletedDocWithFilterContinuous
        @Test func aContinuousPullFilterDecidesWhichDeletionsArePulled() async throws {
            try await filteredDeletions(.pull, continuous: true)
        }

        /// Two documents go through `type`'s filter; then both are deleted where they were made
        /// (locally for a push, on the remote for a pull). The filter sees both deletions and
        /// lets only "pass"'s through.
        private func filteredDeletions(_ type: ReplicatorType, continuous: Bool) async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            let pushing = type == .push
            let (source, target) =
                pushing ? (local.collection, remote.collection) : (remote.collection, local.collection)
            for id in ["doc1", "pass"] {
                _ = try pushing ? local.save(id, #"{"name": "pass"}"#) : remote.save(id, #"{"name": "pass"}"#)
            }
            let deletions = SeenIDs()
            let filter: ReplicationFilter = { document, flags in
                if flags.contains(.deleted) {
                    deletions.add(document.id)
                    return document.id == "pass"
                }
                return document.string(forKey: "name") == "pass"
            }
            var collectionConfig = CollectionConfiguration()
            if pushing { collectionConfig.pushFilter = filter } else { collectionConfig.pullFilter = filter }
            let runner = ReplicatorRunner(
                replicatorConfig(
                    [local.collection], remote.url, type: type, continuous: continuous, config: collectionConfig))
            #expect(try await runner.run().error == nil)
            #expect(deletions.all.isEmpty)
            #expect(try target.document(id: "doc1") != nil)
            #expect(try target.document(id: "pass") != nil)

            for id in ["doc1", "pass"] {
                try source.delete(document: try #require(try source.document(id: id)))
            }
            #expect(try await runner.run().error == nil)
            #expect(deletions.set == ["doc1", "pass"])
            #expect(try target.document(id: "doc1") != nil)
            #expect(try target.document(id: "pass") == nil)
            await remote.stop()
        }

        // covers: ReplicatorTest.testStopAndRestartPushReplicationWithFilter
        @Test func aRestartedContinuousPushKeepsItsFilter() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try local.save("doc1", #"{"name": "pass"}"#)
            let seen = SeenIDs()
            var collectionConfig = CollectionConfiguration()
            collectionConfig.pushFilter = { document, _ in
                seen.add(document.id)
                return document.string(forKey: "name") == "pass"
            }
            let runner = ReplicatorRunner(
                replicatorConfig(
                    [local.collection], remote.url, type: .push, continuous: true, config: collectionConfig))
            #expect(try await runner.run().error == nil)
            #expect(seen.set == ["doc1"])
            #expect(remote.collection.count == 1)

            try local.save("doc2", #"{"name": "pass"}"#)
            try local.save("doc3", #"{"name": "donotpass"}"#)
            seen.clear()
            #expect(try await runner.run().error == nil)
            #expect(seen.set == ["doc2", "doc3"])
            #expect(try remote.collection.document(id: "doc2") != nil)
            #expect(try remote.collection.document(id: "doc3") == nil)
            #expect(local.collection.count == 3)
            #expect(remote.collection.count == 2)
            await remote.stop()
        }

        // covers: ReplicatorTest.testStopAndRestartPullReplicationWithFilter
        @Test func aRestartedContinuousPullKeepsItsFilter() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try remote.save("doc1", #"{"name": "pass"}"#)
            let seen = SeenIDs()
            var collectionConfig = CollectionConfiguration()
            collectionConfig.pullFilter = { document, _ in
                seen.add(document.id)
                return document.string(forKey: "name") == "pass"
            }
            let runner = ReplicatorRunner(
                replicatorConfig(
                    [local.collection], remote.url, type: .pull, continuous: true, config: collectionConfig))
            #expect(try await runner.run().error == nil)
            #expect(seen.set == ["doc1"])
            #expect(local.collection.count == 1)

            try remote.save("doc2", #"{"name": "pass"}"#)
            try remote.save("doc3", #"{"name": "donotpass"}"#)
            seen.clear()
            #expect(try await runner.run().error == nil)
            #expect(seen.set == ["doc2", "doc3"])
            #expect(try local.collection.document(id: "doc2") != nil)
            #expect(try local.collection.document(id: "doc3") == nil)
            #expect(remote.collection.count == 3)
            #expect(local.collection.count == 2)
            await remote.stop()
        }

        /// A URL nothing listens on: connections are refused.
        private func refusedURL() throws -> URL {
            let peer = try ScriptedPeer { _ in .drop }
            let url = peer.url()
            peer.stop()
            return url
        }

        // covers: ReplicatorTest.testMaxAttempt
        @Test func maxAttemptsCountsTheFirstTryAndEachRetryGoesOfflineOnce() async throws {
            for (attempts, offline, continuous) in [(1, 0, false), (1, 0, true), (2, 1, false), (2, 1, true)] {
                try await maxAttempts(UInt(attempts), offline: offline, continuous: continuous)
            }
        }

        private func maxAttempts(_ attempts: UInt, offline: Int, continuous: Bool) async throws {
            let local = try SyncTestDatabase()
            var config = replicatorConfig([local.collection], try refusedURL(), continuous: continuous)
            config.maxAttempts = attempts
            let runner = ReplicatorRunner(config)
            let status = try await runner.run()
            #expect(status.error?.code == .networkError)
            #expect(runner.activities.filter { $0 == .offline }.count == offline)
        }

        // covers: ReplicatorTest.testMaxAttemptWaitTimeOfReplicator
        @Test func retriesWaitDoublingUpToMaxAttemptWaitTime() async throws {
            let clock = RecordingClock()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-sync-\(UUID())")
            defer { try? FileManager.default.removeItem(at: directory) }
            let database = try Database(
                name: "local", config: DatabaseConfiguration(directory: directory.path, clock: clock))
            defer { try? database.close() }
            var config = replicatorConfig([try database.defaultCollection()], try refusedURL())
            config.maxAttempts = 4
            config.maxAttemptWaitTime = 2
            let replicator = Replicator(config: config)
            let recorder = ReplicationRecorder(replicator)
            replicator.start()
            // Each wait is scheduled on the database's clock; advancing it past the wait retries.
            for expected in [1.0, 2.0, 2.0] {
                try await eventually(timeout: 120, "a wait of \(expected) s") {
                    clock.waits.count == clock.advanced + 1
                }
                #expect(clock.waits.last == expected)
                clock.advanceToNextWait()
            }
            let status = try await recorder.waitUntilStopped(timeout: 120)
            #expect(status.error?.code == .networkError)
            #expect(clock.waits == [1, 2, 2])
            #expect(recorder.activities.filter { $0 == .offline }.count == 3)
        }

        // covers: ReplicatorTest.testRemoveChangeListener
        @Test func aRemovedChangeListenerHearsNothing() async throws {
            let local = try SyncTestDatabase()
            var config = replicatorConfig([local.collection], try refusedURL())
            config.maxAttempts = 1
            let replicator = Replicator(config: config)
            let heard = Locked(0)
            let token = replicator.addChangeListener { _ in heard.withLock { $0 += 1 } }
            token.remove()
            let recorder = ReplicationRecorder(replicator)
            replicator.start()
            #expect(try await recorder.waitUntilStopped(timeout: 120).error != nil)
            #expect(recorder.activities.count >= 2)
            #expect(heard.withLock { $0 } == 0)
        }

        // covers: ReplicatorTest.testGetCorrelationID
        @Test func theCorrelationIDIsTheRunsCheckpointSession() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try local.save("doc", "{}")
            let runner = ReplicatorRunner(replicatorConfig([local.collection], remote.url))
            #expect(runner.replicator.correlationID == nil)
            #expect(try await runner.run().error == nil)
            let first = try #require(runner.replicator.correlationID)
            #expect(!first.isEmpty)
            let checkpointID = try #require(runner.replicator.checkpointReport(for: local.collection)?.checkpointID)
            let checkpoint = try #require(try remote.collection.localDocument(id: checkpointID))
            #expect(checkpoint["session_id"]?.stringValue == first)
            #expect(try await runner.run().error == nil)
            #expect(runner.replicator.correlationID != first)
            await remote.stop()
        }
    }
}

/// A ``ManualClock`` that records the length of each wait scheduled on it.
final class RecordingClock: QuireClock, @unchecked Sendable {
    private let clock = ManualClock()
    private let lock = NSLock()
    private var recorded: [(wait: TimeInterval, date: Date)] = []
    private var advances = 0

    var now: Date { clock.now }

    func schedule(at date: Date, _ action: @escaping @Sendable () -> Void) -> any ClockTimer {
        lock.withLock { recorded.append((date.timeIntervalSince(clock.now), date)) }
        return clock.schedule(at: date, action)
    }

    /// The waits scheduled so far, in seconds.
    var waits: [TimeInterval] { lock.withLock { recorded.map(\.wait) } }
    /// How many waits ``advanceToNextWait()`` ended.
    var advanced: Int { lock.withLock { advances } }

    /// Moves the clock to the end of the latest wait.
    func advanceToNextWait() {
        guard
            let date = lock.withLock({ () -> Date? in
                advances += 1
                return recorded.last?.date
            })
        else { return }
        clock.advance(to: date)
    }
}
