import Foundation
import Quire
import Testing

@testable import QuireSync

extension EndToEnd {
    /// Couchbase Lite's ReplicatorTest_Collection between two Quire databases through a
    /// listener on loopback: one replicator, several collections, each with its own options.
    @Suite(.serialized) struct ReplicatorCollectionTests {
        /// Both databases with `scopeA.colA` and `scopeA.colB`.
        private struct Pair {
            let local: SyncTestDatabase
            let remote: ListeningPeer
            let col1a: Collection
            let col1b: Collection
            let col2a: Collection
            let col2b: Collection

            init() async throws {
                local = try SyncTestDatabase()
                remote = try await ListeningPeer(extraCollections: [("scopeA", "colA"), ("scopeA", "colB")])
                col1a = try local.database.createCollection(name: "colA", scope: "scopeA")
                col1b = try local.database.createCollection(name: "colB", scope: "scopeA")
                col2a = try #require(try remote.database.collection(name: "colA", scope: "scopeA"))
                col2b = try #require(try remote.database.collection(name: "colB", scope: "scopeA"))
            }
        }

        /// Couchbase Lite's `createDocNumbered`: `doc<i>` with `number1` = i.
        private func numbered(_ collection: Collection, start: Int, count: Int) throws {
            for index in start..<start + count {
                let document = MutableDocument(id: "doc\(index)")
                document.setValue(index, forKey: "number1")
                try collection.save(document: document)
            }
        }

        private func update(_ collection: Collection, _ id: String, _ value: String) throws {
            let document = try #require(try collection.document(id: id)).toMutable()
            document.setValue(value, forKey: "update")
            try collection.save(document: document)
        }

        // covers: ReplicatorTest_Collection.testCollectionSingleShotPushReplication
        @Test func aPushCopiesEachCollectionIntoItsOwn() async throws { try await push(continuous: false) }

        // covers: ReplicatorTest_Collection.testCollectionContinuousPushReplication
        @Test func aContinuousPushCopiesEachCollectionIntoItsOwn() async throws { try await push(continuous: true) }

        private func push(continuous: Bool) async throws {
            let pair = try await Pair()
            try numbered(pair.col1a, start: 0, count: 10)
            try numbered(pair.col1b, start: 10, count: 10)
            try numbered(pair.local.collection, start: 20, count: 10)
            let runner = ReplicatorRunner(
                replicatorConfig(
                    [pair.col1a, pair.col1b, pair.local.collection], pair.remote.url, type: .push,
                    continuous: continuous))
            #expect(try await runner.run().error == nil)
            #expect([pair.col2a.count, pair.col2b.count, pair.remote.collection.count] == [10, 10, 10])
            #expect([pair.col1a.count, pair.col1b.count, pair.local.collection.count] == [10, 10, 10])
            #expect(try pair.col2b.document(id: "doc15")?.int(forKey: "number1") == 15)
            #expect(try pair.col2a.document(id: "doc15") == nil)
            await pair.remote.stop()
        }

        // covers: ReplicatorTest_Collection.testCollectionSingleShotPullReplication
        @Test func aPullCopiesEachCollectionIntoItsOwn() async throws { try await pull(continuous: false) }

        // covers: ReplicatorTest_Collection.testCollectionContinuousPullReplication
        @Test func aContinuousPullCopiesEachCollectionIntoItsOwn() async throws { try await pull(continuous: true) }

        private func pull(continuous: Bool) async throws {
            let pair = try await Pair()
            try numbered(pair.col2a, start: 0, count: 10)
            try numbered(pair.col2b, start: 10, count: 10)
            try numbered(pair.remote.collection, start: 20, count: 10)
            let runner = ReplicatorRunner(
                replicatorConfig(
                    [pair.col1a, pair.col1b, pair.local.collection], pair.remote.url, type: .pull,
                    continuous: continuous))
            #expect(try await runner.run().error == nil)
            #expect([pair.col1a.count, pair.col1b.count, pair.local.collection.count] == [10, 10, 10])
            #expect([pair.col2a.count, pair.col2b.count, pair.remote.collection.count] == [10, 10, 10])
            #expect(try pair.local.collection.document(id: "doc25")?.int(forKey: "number1") == 25)
            #expect(try pair.col1a.document(id: "doc25") == nil)
            await pair.remote.stop()
        }

        // covers: ReplicatorTest_Collection.testCollectionSingleShotPushPullReplication
        @Test func aPushAndPullMergesEachCollectionWithItsOwn() async throws {
            try await pushAndPull(continuous: false)
        }

        // covers: ReplicatorTest_Collection.testCollectionContinuousPushPullReplication
        @Test func aContinuousPushAndPullMergesEachCollectionWithItsOwn() async throws {
            try await pushAndPull(continuous: true)
        }

        private func pushAndPull(continuous: Bool) async throws {
            let pair = try await Pair()
            try numbered(pair.col1a, start: 0, count: 2)
            try numbered(pair.col2a, start: 10, count: 5)
            try numbered(pair.col1b, start: 5, count: 3)
            try numbered(pair.col2b, start: 15, count: 8)
            let runner = ReplicatorRunner(
                replicatorConfig([pair.col1a, pair.col1b], pair.remote.url, continuous: continuous))
            #expect(try await runner.run().error == nil)
            #expect([pair.col1a.count, pair.col2a.count, pair.col1b.count, pair.col2b.count] == [7, 7, 11, 11])
            await pair.remote.stop()
        }

        // covers: ReplicatorTest_Collection.testCollectionResetReplication
        @Test func aResetPullBringsBackPurgedDocumentsOfACollection() async throws {
            let pair = try await Pair()
            try numbered(pair.col2a, start: 0, count: 5)
            let runner = ReplicatorRunner(replicatorConfig([pair.col1a], pair.remote.url, type: .pull))
            #expect(try await runner.run().error == nil)
            #expect(pair.col1a.count == 5)
            for index in 0..<5 { try pair.col1a.purge(id: "doc\(index)") }
            #expect(try await runner.run().error == nil)
            #expect(pair.col1a.count == 0)
            #expect(try await runner.run(reset: true).error == nil)
            #expect(pair.col1a.count == 5)
            #expect(pair.col2a.count == 5)
            await pair.remote.stop()
        }

        // covers: ReplicatorTest_Collection.testCollectionDefaultConflictResolver
        @Test func theDefaultResolverOfACollectionPicksTheLongerHistory() async throws {
            let pair = try await Pair()
            try pair.col1a.save(document: MutableDocument(id: "doc1"))
            let config = replicatorConfig([pair.col1a], pair.remote.url)
            #expect(try await ReplicatorRunner(config).run().error == nil)
            try update(pair.col1a, "doc1", "update1")
            try update(pair.col2a, "doc1", "update2.1")
            try update(pair.col2a, "doc1", "update2.2")

            let runner = ReplicatorRunner(config)
            #expect(try await runner.run().error == nil)
            // The push may meet the conflict (httpConflict) or come after the pull resolved it.
            #expect(runner.pushed.allSatisfy { $0.error == nil || $0.error?.code == .httpConflict })
            #expect(runner.pulled.map(\.id) == ["doc1"])
            #expect(runner.pulled.first?.error == nil)
            #expect(try pair.col1a.document(id: "doc1")?.string(forKey: "update") == "update2.2")
            #expect(try pair.col1a.conflictingRevisionIDs(id: "doc1").isEmpty)
            await pair.remote.stop()
        }

        final class Choosing: ConflictResolverProtocol, @unchecked Sendable {
            let pick: @Sendable (Conflict) -> Document?
            let seen = SeenIDs()
            init(_ pick: @escaping @Sendable (Conflict) -> Document?) { self.pick = pick }
            func resolve(conflict: Conflict) -> Document? {
                seen.add(conflict.documentID)
                return pick(conflict)
            }
        }

        // covers: ReplicatorTest_Collection.testCollectionConflictResolver
        @Test func eachCollectionResolvesWithItsOwnResolver() async throws {
            let pair = try await Pair()
            let first = MutableDocument(id: "doc1")
            first.setValue("update0", forKey: "update")
            try pair.col1a.save(document: first)
            let second = MutableDocument(id: "doc2")
            second.setValue("update0", forKey: "update")
            try pair.col1b.save(document: second)
            let localWins = Choosing { $0.localDocument }
            let remoteWins = Choosing { $0.remoteDocument }
            var config = replicatorConfig([], pair.remote.url)
            config.addCollection(pair.col1a, config: CollectionConfiguration(conflictResolver: localWins))
            config.addCollection(pair.col1b, config: CollectionConfiguration(conflictResolver: remoteWins))
            #expect(try await ReplicatorRunner(config).run().error == nil)

            try update(pair.col1a, "doc1", "update1a")
            try update(pair.col2a, "doc1", "update2a")
            try update(pair.col1b, "doc2", "update1b")
            try update(pair.col2b, "doc2", "update2b")
            let runner = ReplicatorRunner(config)
            #expect(try await runner.run().error == nil)
            #expect(localWins.seen.all == ["doc1"])
            #expect(remoteWins.seen.all == ["doc2"])
            for document in runner.pulled {
                #expect(document.id == (document.collection == "colA" ? "doc1" : "doc2"))
                #expect(document.error == nil)
            }
            for document in runner.pushed {
                #expect(document.id == (document.collection == "colA" ? "doc1" : "doc2"))
                #expect(document.error == nil || document.error?.code == .httpConflict)
            }
            #expect(try pair.col1a.document(id: "doc1")?.string(forKey: "update") == "update1a")
            #expect(try pair.col1b.document(id: "doc2")?.string(forKey: "update") == "update2b")
            #expect(try pair.col2b.document(id: "doc2")?.string(forKey: "update") == "update2b")
            // Quire's one-shot push waits for the pull and sends the resolution in the same run
            // (Couchbase Lite sends it in the next), so the remote has the local winner too.
            #expect(try pair.col2a.document(id: "doc1")?.string(forKey: "update") == "update1a")
            await pair.remote.stop()
        }

        /// colA keeps numbers below 5, colB numbers from 15, as the filter reads the document's
        /// collection.
        private static let byCollection: ReplicationFilter = { document, _ in
            document.collection?.name == "colA"
                ? document.int(forKey: "number1") < 5 : document.int(forKey: "number1") >= 15
        }

        // covers: ReplicatorTest_Collection.testCollectionPushFilter
        @Test func eachCollectionPushesWhatItsFilterAccepts() async throws {
            let pair = try await Pair()
            try numbered(pair.col1a, start: 0, count: 10)
            try numbered(pair.col1b, start: 10, count: 10)
            var config = replicatorConfig([], pair.remote.url, type: .push)
            config.addCollections(
                [pair.col1a, pair.col1b], config: CollectionConfiguration(pushFilter: Self.byCollection))
            #expect(try await ReplicatorRunner(config).run().error == nil)
            #expect([pair.col1a.count, pair.col1b.count, pair.col2a.count, pair.col2b.count] == [10, 10, 5, 5])
            #expect(try pair.col2a.document(id: "doc4") != nil && pair.col2a.document(id: "doc5") == nil)
            #expect(try pair.col2b.document(id: "doc15") != nil && pair.col2b.document(id: "doc14") == nil)
            await pair.remote.stop()
        }

        // covers: ReplicatorTest_Collection.testCollectionPullFilter
        @Test func eachCollectionPullsWhatItsFilterAccepts() async throws {
            let pair = try await Pair()
            try numbered(pair.col2a, start: 0, count: 10)
            try numbered(pair.col2b, start: 10, count: 10)
            var config = replicatorConfig([], pair.remote.url, type: .pull)
            config.addCollections(
                [pair.col1a, pair.col1b], config: CollectionConfiguration(pullFilter: Self.byCollection))
            #expect(try await ReplicatorRunner(config).run().error == nil)
            #expect([pair.col1a.count, pair.col1b.count, pair.col2a.count, pair.col2b.count] == [5, 5, 10, 10])
            #expect(try pair.col1a.document(id: "doc4") != nil && pair.col1a.document(id: "doc5") == nil)
            #expect(try pair.col1b.document(id: "doc15") != nil && pair.col1b.document(id: "doc14") == nil)
            await pair.remote.stop()
        }

        // covers: ReplicatorTest_Collection.testCollectionDocumentIDsPullFilter
        @Test func eachCollectionPullsOnlyItsDocumentIDs() async throws {
            let pair = try await Pair()
            try numbered(pair.col2a, start: 0, count: 5)
            try numbered(pair.col2b, start: 10, count: 5)
            var config = replicatorConfig([], pair.remote.url, type: .pull)
            config.addCollection(pair.col1a, config: CollectionConfiguration(documentIDs: ["doc1", "doc2"]))
            config.addCollection(pair.col1b, config: CollectionConfiguration(documentIDs: ["doc10", "doc11", "doc13"]))
            #expect(try await ReplicatorRunner(config).run().error == nil)
            #expect([pair.col1a.count, pair.col1b.count, pair.col2a.count, pair.col2b.count] == [2, 3, 5, 5])
            #expect(try pair.col1b.document(id: "doc12") == nil)
            await pair.remote.stop()
        }

        // covers: ReplicatorTest_Collection.testCollectionGetPendingDocumentIDs
        @Test func pendingDocumentIDsAreCountedPerCollection() async throws {
            let pair = try await Pair()
            try numbered(pair.col1a, start: 0, count: 10)
            try numbered(pair.col1b, start: 10, count: 5)
            let runner = ReplicatorRunner(replicatorConfig([pair.col1a, pair.col1b], pair.remote.url, type: .push))
            let replicator = runner.replicator
            #expect(try replicator.pendingDocumentIds(collection: pair.col1a).count == 10)
            #expect(try replicator.pendingDocumentIds(collection: pair.col1b).count == 5)
            #expect(try await runner.run().error == nil)
            #expect(try replicator.pendingDocumentIds(collection: pair.col1a).isEmpty)
            #expect(try replicator.pendingDocumentIds(collection: pair.col1b).isEmpty)
            try update(pair.col1a, "doc1", "update1")
            #expect(try replicator.pendingDocumentIds(collection: pair.col1a) == ["doc1"])
            try update(pair.col1b, "doc12", "update2")
            #expect(try replicator.pendingDocumentIds(collection: pair.col1b) == ["doc12"])
            await pair.remote.stop()
        }

        // covers: ReplicatorTest_Collection.testCollectionIsDocumentPending
        @Test func aDocumentIsPendingInItsCollectionUntilPushed() async throws {
            let pair = try await Pair()
            try numbered(pair.col1a, start: 0, count: 10)
            try numbered(pair.col1b, start: 10, count: 5)
            let runner = ReplicatorRunner(replicatorConfig([pair.col1a, pair.col1b], pair.remote.url, type: .push))
            let replicator = runner.replicator
            for index in 0..<10 { #expect(try replicator.isDocumentPending("doc\(index)", collection: pair.col1a)) }
            for index in 10..<15 { #expect(try replicator.isDocumentPending("doc\(index)", collection: pair.col1b)) }
            #expect(try !replicator.isDocumentPending("doc10", collection: pair.col1a))
            #expect(try await runner.run().error == nil)
            for index in 0..<10 { #expect(try !replicator.isDocumentPending("doc\(index)", collection: pair.col1a)) }
            for index in 10..<15 { #expect(try !replicator.isDocumentPending("doc\(index)", collection: pair.col1b)) }
            try update(pair.col1a, "doc1", "update1")
            #expect(try replicator.isDocumentPending("doc1", collection: pair.col1a))
            try pair.col1b.delete(document: try #require(try pair.col1b.document(id: "doc12")))
            #expect(try replicator.isDocumentPending("doc12", collection: pair.col1b))
            #expect(try !replicator.isDocumentPending("doc13", collection: pair.col1b))
            await pair.remote.stop()
        }

        // covers: ReplicatorTest_Collection.testCollectionDocumentReplicationEvents
        @Test func documentEventsCoverEveryCollectionBothWays() async throws {
            let pair = try await Pair()
            try numbered(pair.col1a, start: 0, count: 4)
            try numbered(pair.col1b, start: 5, count: 5)
            let runner = ReplicatorRunner(replicatorConfig([pair.col1a, pair.col1b], pair.remote.url))
            #expect(try await runner.run().error == nil)
            #expect([pair.col1a.count, pair.col2a.count, pair.col1b.count, pair.col2b.count] == [4, 4, 5, 5])
            let first = runner.pushed + runner.pulled
            #expect(
                first.map(\.id).sorted() == ["doc0", "doc1", "doc2", "doc3", "doc5", "doc6", "doc7", "doc8", "doc9"])
            #expect(Set(first.map(\.collection)) == ["colA", "colB"])

            try pair.col1a.delete(document: try #require(try pair.col1a.document(id: "doc0")))
            try pair.col1b.delete(document: try #require(try pair.col1b.document(id: "doc6")))
            try pair.col2a.delete(document: try #require(try pair.col2a.document(id: "doc1")))
            try pair.col2b.delete(document: try #require(try pair.col2b.document(id: "doc7")))
            runner.clearDocuments()
            #expect(try await runner.run().error == nil)
            #expect([pair.col1a.count, pair.col2a.count, pair.col1b.count, pair.col2b.count] == [2, 2, 3, 3])
            #expect(runner.pushed.map(\.id).sorted() == ["doc0", "doc6"])
            #expect(runner.pulled.map(\.id).sorted() == ["doc1", "doc7"])
            #expect((runner.pushed + runner.pulled).allSatisfy { $0.flags == .deleted && $0.error == nil })
            await pair.remote.stop()
        }
    }
}
