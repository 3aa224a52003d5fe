import Foundation
import Quire
import Testing

@testable import QuireSync

extension EndToEnd {
    /// Keys spelt in NFC and in NFD are two keys on both sides of a replication, as fleece
    /// keeps them (it compares dictionary keys as bytes; see Specs/documents/unicode-keys.yaml):
    /// a pulled, pushed or conflict-resolved revision keeps both values, byte for byte, and
    /// keeps its revision ID.
    @Suite(.serialized) struct ReplicatorUnicodeKeyTests {
        static let nfc = "caf\u{E9}"
        static let nfd = "cafe\u{301}"
        /// Both spellings at the top level and in a nested object.
        static let body =
            "{\"\(nfc)\": 1, \"\(nfd)\": 2, \"menu\": {\"\(nfc)\": \"nfc\", \"\(nfd)\": \"nfd\"}}"

        /// The document holds both spellings with their own values.
        private func expectBothSpellings(_ document: Document?, _ comment: Comment) throws {
            let document = try #require(document, comment)
            #expect(document.count == 3, comment)
            #expect(document.int(forKey: Self.nfc) == 1, comment)
            #expect(document.int(forKey: Self.nfd) == 2, comment)
            let menu = try #require(document.dictionary(forKey: "menu"), comment)
            #expect(menu.count == 2, comment)
            #expect(menu.string(forKey: Self.nfc) == "nfc", comment)
            #expect(menu.string(forKey: Self.nfd) == "nfd", comment)
        }

        /// Both sides hold the same revision with the same JSON.
        private func expectSame(_ id: String, _ local: Collection, _ remote: Collection) throws {
            let mine = try #require(try local.document(id: id))
            let theirs = try #require(try remote.document(id: id))
            #expect(mine.revisionID == theirs.revisionID)
            #expect(mine.toJSON() == theirs.toJSON())
        }

        /// A document saved on one side arrives on the other with both spellings, pulled or pushed.
        @Test(arguments: [ReplicatorType.pull, .push])
        func aReplicatedDocumentKeepsBothSpellingsOfAKey(direction: ReplicatorType) async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            let pulls = direction == .pull
            if pulls { try remote.save("doc", Self.body) } else { try local.save("doc", Self.body) }

            let outcome = try await replicate(local.collection, with: remote.url, type: direction)
            #expect(outcome.status.error == nil)
            #expect((pulls ? outcome.pulled : outcome.pushed).map(\.id) == ["doc"])
            let arrived = pulls ? local.collection : remote.collection
            try expectBothSpellings(try arrived.document(id: "doc"), pulls ? "pulled" : "pushed")
            try expectSame("doc", local.collection, remote.collection)
            await remote.stop()
        }

        /// Both sides edit the document after a first sync; `remoteEdits` edits on the remote.
        private func diverge(remoteEdits: Int) async throws -> (SyncTestDatabase, ListeningPeer) {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try local.save("doc", #"{"v": "base"}"#)
            #expect(try await replicate(local.collection, with: remote.url).status.error == nil)
            let mine = try #require(try local.collection.document(id: "doc")).toMutable()
            try mine.setJSON(#"{"v": "local"}"#)
            try local.collection.save(document: mine)
            for _ in 0..<remoteEdits {
                let theirs = try #require(try remote.collection.document(id: "doc")).toMutable()
                try theirs.setJSON(Self.body)
                try remote.collection.save(document: theirs)
            }
            return (local, remote)
        }

        @Test func theDefaultResolverKeepsBothSpellingsOfTheWinningBody() async throws {
            // The remote's revision has more edits, so it wins (Couchbase Lite's default rule).
            let (local, remote) = try await diverge(remoteEdits: 2)
            let outcome = try await replicate(local.collection, with: remote.url)
            #expect(outcome.status.error == nil)
            try expectBothSpellings(try local.collection.document(id: "doc"), "resolved")
            #expect(try local.collection.conflictingRevisionIDs(id: "doc").isEmpty)
            try expectSame("doc", local.collection, remote.collection)
            await remote.stop()
        }

        @Test(arguments: [ReplicatorType.push, .pull])
        func documentIDsThatDifferOnlyInNormalisationAreTwoDocuments(_ type: ReplicatorType) async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            let source = type == .push ? local.collection : remote.collection
            let target = type == .push ? remote.collection : local.collection
            try source.save(document: MutableDocument(id: Self.nfc, json: #"{"form": "nfc"}"#))
            try source.save(document: MutableDocument(id: Self.nfd, json: #"{"form": "nfd"}"#))
            #expect(source.count == 2)

            let outcome = try await replicate(local.collection, with: remote.url, type: type)
            #expect(outcome.status.error == nil)
            #expect(target.count == 2)
            #expect(try target.document(id: Self.nfc)?.string(forKey: "form") == "nfc")
            #expect(try target.document(id: Self.nfd)?.string(forKey: "form") == "nfd")
            await remote.stop()
        }

        @Test(arguments: [ReplicatorType.push, .pull])
        func aDocumentIDFilterTakesOnlyTheSpellingItNames(_ type: ReplicatorType) async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            let source = type == .push ? local.collection : remote.collection
            let target = type == .push ? remote.collection : local.collection
            try source.save(document: MutableDocument(id: Self.nfc, json: #"{"form": "nfc"}"#))
            try source.save(document: MutableDocument(id: Self.nfd, json: #"{"form": "nfd"}"#))

            var config = CollectionConfiguration()
            config.documentIDs = [Self.nfd]
            let outcome = try await replicate(local.collection, with: remote.url, type: type, collectionConfig: config)
            #expect(outcome.status.error == nil)
            #expect(target.count == 1)
            #expect(try target.document(id: Self.nfd)?.string(forKey: "form") == "nfd")
            #expect(try target.document(id: Self.nfc) == nil)
            await remote.stop()
        }

        private struct SpellingResolver: ConflictResolverProtocol {
            /// Keeps the remote's body and adds the local `v`.
            func resolve(conflict: Conflict) -> Document? {
                guard let remote = conflict.remoteDocument else { return nil }
                let merged = remote.toMutable()
                merged.setValue(conflict.localDocument?.string(forKey: "v"), forKey: "v")
                return merged
            }
        }

        @Test func aCustomResolutionKeepsBothSpellingsAndPushesThem() async throws {
            let (local, remote) = try await diverge(remoteEdits: 1)
            var config = CollectionConfiguration()
            config.conflictResolver = SpellingResolver()
            let outcome = try await replicate(local.collection, with: remote.url, collectionConfig: config)
            #expect(outcome.status.error == nil)
            let resolved = try #require(try local.collection.document(id: "doc"))
            #expect(resolved.string(forKey: "v") == "local")
            let withoutV = resolved.toMutable()
            withoutV.removeValue(forKey: "v")
            try expectBothSpellings(withoutV, "resolved")
            // The resolution reaches the remote with both spellings.
            let again = try await replicate(local.collection, with: remote.url, type: .push)
            #expect(again.status.error == nil)
            try expectSame("doc", local.collection, remote.collection)
            #expect(try remote.collection.document(id: "doc")?.dictionary(forKey: "menu")?.count == 2)
            await remote.stop()
        }
    }
}
