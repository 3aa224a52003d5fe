import Foundation
import Quire
import Testing

@testable import QuireSync

extension EndToEnd {
    /// Conflicts made by replication, resolved by the default and by custom resolvers, on both
    /// sides of a listener.
    @Suite(.serialized) struct ReplicatorConflictTests {
        /// Both sides edit the same document; after push-and-pull both agree on one revision and
        /// neither keeps a live conflicting branch.
        private func divergeAndSync(
            resolver: ConflictResolverProtocol? = nil, local localEdit: String, remote remoteEdit: String,
            localEdits: Int = 1, deleteRemote: Bool = false
        ) async throws -> (SyncTestDatabase, ListeningPeer, ReplicationOutcome) {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try local.save("doc", #"{"v": "base"}"#)
            _ = try await replicate(local.collection, with: remote.url)
            for _ in 0..<localEdits {
                let mine = try #require(try local.collection.document(id: "doc")).toMutable()
                try mine.setJSON(localEdit)
                try local.collection.save(document: mine)
            }
            let theirs = try #require(try remote.collection.document(id: "doc"))
            if deleteRemote {
                try remote.collection.delete(document: theirs)
            } else {
                let edited = theirs.toMutable()
                try edited.setJSON(remoteEdit)
                try remote.collection.save(document: edited)
            }
            var config = CollectionConfiguration()
            config.conflictResolver = resolver
            let outcome = try await replicate(local.collection, with: remote.url, collectionConfig: config)
            return (local, remote, outcome)
        }

        private func expectAgreement(_ local: SyncTestDatabase, _ remote: ListeningPeer) throws {
            let mine = try #require(try local.collection.revisionInfo(id: "doc"))
            let theirs = try #require(try remote.collection.revisionInfo(id: "doc"))
            #expect(mine.revisionID == theirs.revisionID)
            #expect(mine.isDeleted == theirs.isDeleted)
            #expect(try local.collection.conflictingRevisionIDs(id: "doc").isEmpty)
            #expect(try remote.collection.conflictingRevisionIDs(id: "doc").isEmpty)
        }

        @Test func defaultResolverPicksTheHigherGeneration() async throws {
            let (local, remote, outcome) = try await divergeAndSync(
                local: #"{"v": "local"}"#, remote: #"{"v": "remote"}"#, localEdits: 2)
            #expect(outcome.status.error == nil)
            #expect(try local.collection.document(id: "doc")?.string(forKey: "v") == "local")
            #expect(try remote.collection.document(id: "doc")?.string(forKey: "v") == "local")
            try expectAgreement(local, remote)
            await remote.stop()
        }

        @Test func defaultResolverLetsTheDeletionWin() async throws {
            let (local, remote, outcome) = try await divergeAndSync(
                local: #"{"v": "local"}"#, remote: "", localEdits: 3, deleteRemote: true)
            #expect(outcome.status.error == nil)
            #expect(try local.collection.document(id: "doc") == nil)
            #expect(try remote.collection.document(id: "doc") == nil)
            try expectAgreement(local, remote)
            await remote.stop()
        }

        @Test func defaultResolverBreaksTiesByRevisionID() async throws {
            let (local, remote, outcome) = try await divergeAndSync(
                local: #"{"v": "local"}"#, remote: #"{"v": "remote"}"#)
            #expect(outcome.status.error == nil)
            // Same generation: the higher revision ID's body wins, the same on both sides.
            let leaves = try local.collection.leaves(id: "doc")
            #expect(leaves.count == 2)
            try expectAgreement(local, remote)
            let expected = try #require(try local.collection.document(id: "doc")?.string(forKey: "v"))
            #expect(try remote.collection.document(id: "doc")?.string(forKey: "v") == expected)
            await remote.stop()
        }

        private struct MergingResolver: ConflictResolverProtocol {
            let seen: SeenConflicts
            func resolve(conflict: Conflict) -> Document? {
                seen.record(conflict)
                let merged = MutableDocument(id: conflict.documentID)
                merged.setValue(
                    [
                        conflict.localDocument?.string(forKey: "v") ?? "-",
                        conflict.remoteDocument?.string(forKey: "v") ?? "-",
                    ]
                    .sorted().joined(separator: "+"), forKey: "v")
                return merged
            }
        }

        final class SeenConflicts: @unchecked Sendable {
            private let lock = NSLock()
            private var conflicts: [Conflict] = []
            func record(_ conflict: Conflict) { lock.withLock { conflicts.append(conflict) } }
            var all: [Conflict] { lock.withLock { conflicts } }
        }

        @Test func customResolverGetsBothSidesAndItsMergeReachesTheRemote() async throws {
            let seen = SeenConflicts()
            let (local, remote, outcome) = try await divergeAndSync(
                resolver: MergingResolver(seen: seen), local: #"{"v": "local"}"#, remote: #"{"v": "remote"}"#)
            #expect(outcome.status.error == nil)
            let conflict = try #require(seen.all.first)
            #expect(seen.all.count == 1)
            #expect(conflict.documentID == "doc")
            #expect(conflict.localDocument?.string(forKey: "v") == "local")
            #expect(conflict.remoteDocument?.string(forKey: "v") == "remote")
            #expect(try local.collection.document(id: "doc")?.string(forKey: "v") == "local+remote")
            #expect(try remote.collection.document(id: "doc")?.string(forKey: "v") == "local+remote")
            try expectAgreement(local, remote)
            await remote.stop()
        }

        @Test func resolverReturningNilDeletesTheDocument() async throws {
            struct Deleting: ConflictResolverProtocol {
                func resolve(conflict: Conflict) -> Document? { nil }
            }
            let (local, remote, outcome) = try await divergeAndSync(
                resolver: Deleting(), local: #"{"v": "local"}"#, remote: #"{"v": "remote"}"#)
            #expect(outcome.status.error == nil)
            #expect(try local.collection.document(id: "doc") == nil)
            #expect(try remote.collection.document(id: "doc") == nil)
            try expectAgreement(local, remote)
            await remote.stop()
        }
    }
}
