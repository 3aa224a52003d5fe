import Foundation
import Quire
import Testing

@testable import QuireSync

extension EndToEnd {
    /// Couchbase Lite's ReplicatorTest_CustomConflict between two Quire databases through a
    /// listener on loopback: conflicts a pull makes, ended by the default or a custom resolver.
    @Suite(.serialized) struct ReplicatorCustomConflictTests {
        final class Resolver: ConflictResolverProtocol, @unchecked Sendable {
            private let lock = NSLock()
            private let pick: @Sendable (Conflict) -> Document?
            private var conflicts: [Conflict] = []
            private var winners: [Document?] = []
            init(_ pick: @escaping @Sendable (Conflict) -> Document?) { self.pick = pick }
            func resolve(conflict: Conflict) -> Document? {
                lock.withLock { conflicts.append(conflict) }
                let winner = pick(conflict)
                lock.withLock { winners.append(winner) }
                return winner
            }
            var seen: [Conflict] { lock.withLock { conflicts } }
            var chosen: [Document?] { lock.withLock { winners } }
        }

        /// Couchbase Lite's `makeConflict`: the document is pushed, then each side changes
        /// it (`nil` deletes it).
        private func makeConflict(
            _ id: String, local: SyncTestDatabase, remote: ListeningPeer, localJSON: String?, remoteJSON: String?,
            localBlob: Blob? = nil, remoteBlob: Blob? = nil
        ) async throws {
            try local.collection.save(document: MutableDocument(id: id))
            let push = try await ReplicatorRunner(replicatorConfig([local.collection], remote.url, type: .push)).run()
            #expect(push.error == nil)
            for (collection, json, blob) in [
                (local.collection, localJSON, localBlob), (remote.collection, remoteJSON, remoteBlob),
            ] {
                let current = try #require(try collection.document(id: id))
                if let json {
                    let edited = current.toMutable()
                    try edited.setJSON(json)
                    if let blob { edited.setValue(blob, forKey: "blob") }
                    try collection.save(document: edited)
                } else {
                    try collection.delete(document: current)
                }
            }
        }

        private func pull(
            _ local: SyncTestDatabase, _ remote: ListeningPeer, resolver: ConflictResolverProtocol? = nil
        ) async throws -> ReplicatorRunner {
            let runner = ReplicatorRunner(
                replicatorConfig(
                    [local.collection], remote.url, type: .pull,
                    config: CollectionConfiguration(conflictResolver: resolver)))
            #expect(try await runner.run().error == nil)
            return runner
        }

        private func body(_ collection: Collection, _ id: String) throws -> String? {
            try collection.document(id: id)?.toJSON()
        }

        // covers: ReplicatorTest_CustomConflict.testConflictResolverDeletedLocalWins
        @Test func aLocalDeletionReachesTheResolverAsNoLocalDocument() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try await makeConflict(
                "doc", local: local, remote: remote, localJSON: nil, remoteJSON: #"{"key2":"value2"}"#)
            let resolver = Resolver { _ in nil }
            _ = try await pull(local, remote, resolver: resolver)
            #expect(resolver.seen.count == 1)
            #expect(resolver.seen.first?.localDocument == nil)
            #expect(resolver.seen.first?.remoteDocument?.string(forKey: "key2") == "value2")
            #expect(local.collection.count == 0)
            #expect(try local.collection.document(id: "doc") == nil)
            await remote.stop()
        }

        // covers: ReplicatorTest_CustomConflict.testConflictResolverDeletedRemoteWins
        @Test func aRemoteDeletionReachesTheResolverAsNoRemoteDocument() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try await makeConflict(
                "doc", local: local, remote: remote, localJSON: #"{"key1":"value1"}"#, remoteJSON: nil)
            let resolver = Resolver { _ in nil }
            _ = try await pull(local, remote, resolver: resolver)
            #expect(resolver.seen.count == 1)
            #expect(resolver.seen.first?.localDocument?.string(forKey: "key1") == "value1")
            #expect(resolver.seen.first?.remoteDocument == nil)
            #expect(local.collection.count == 0)
            await remote.stop()
        }

        // covers: ReplicatorTest_CustomConflict.testConflictResolutionDefault
        @Test func theDefaultResolverLetsDeletionsAndThenTheLongerHistoryWin() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            let localJSON = #"{"key1":"value1"}"#
            let remoteJSON = #"{"key2":"value2"}"#
            func edit(_ collection: Collection, _ id: String, _ key: String) throws {
                let document = try #require(try collection.document(id: id)).toMutable()
                document.setValue("value", forKey: key)
                try collection.save(document: document)
            }
            // doc1: the local side has the longer history.
            try await makeConflict("doc1", local: local, remote: remote, localJSON: localJSON, remoteJSON: remoteJSON)
            try edit(local.collection, "doc1", "key3")
            // doc2: deleted locally, edited again remotely.
            try await makeConflict("doc2", local: local, remote: remote, localJSON: localJSON, remoteJSON: remoteJSON)
            try local.collection.delete(document: try #require(try local.collection.document(id: "doc2")))
            try edit(remote.collection, "doc2", "key3")
            // doc3: edited again locally, deleted remotely.
            try await makeConflict("doc3", local: local, remote: remote, localJSON: localJSON, remoteJSON: remoteJSON)
            try edit(local.collection, "doc3", "key3")
            try remote.collection.delete(document: try #require(try remote.collection.document(id: "doc3")))
            // doc4: deleted locally, the remote two edits further.
            try await makeConflict("doc4", local: local, remote: remote, localJSON: localJSON, remoteJSON: remoteJSON)
            try local.collection.delete(document: try #require(try local.collection.document(id: "doc4")))
            try edit(remote.collection, "doc4", "key3")
            try edit(remote.collection, "doc4", "key4")

            _ = try await pull(local, remote)
            #expect(try local.collection.document(id: "doc1")?.string(forKey: "key3") == "value")
            #expect(try local.collection.document(id: "doc2") == nil)
            #expect(try local.collection.document(id: "doc3") == nil)
            #expect(try local.collection.document(id: "doc4") == nil)
            await remote.stop()
        }

        // covers: ReplicatorTest_CustomConflict.testConflictResolverMergeDoc
        @Test func aResolverMayEditEitherSideOrMakeANewDocument() async throws {
            let cases: [(String, @Sendable (Conflict) -> Document?)] = [
                (
                    #"{"edit":"local","key1":"value1"}"#,
                    { $0.localDocument?.toMutable().setValue("local", forKey: "edit") }
                ),
                (
                    #"{"edit":"remote","key2":"value2"}"#,
                    { $0.remoteDocument?.toMutable().setValue("remote", forKey: "edit") }
                ),
                (
                    #"{"docType":"new-with-same-ID"}"#,
                    { MutableDocument(id: $0.documentID).setValue("new-with-same-ID", forKey: "docType") }
                ),
            ]
            for (expected, pick) in cases {
                let local = try SyncTestDatabase()
                let remote = try await ListeningPeer()
                try await makeConflict(
                    "doc", local: local, remote: remote, localJSON: #"{"key1":"value1"}"#,
                    remoteJSON: #"{"key2":"value2"}"#)
                _ = try await pull(local, remote, resolver: Resolver(pick))
                #expect(try body(local.collection, "doc") == expected)
                #expect(try local.collection.conflictingRevisionIDs(id: "doc").isEmpty)
                await remote.stop()
            }
        }

        // covers: ReplicatorTest_CustomConflict.testConflictResolverReturningBlob
        @Test func aResolvedSideKeepsItsBlobAndTheOtherSidesBlobIsGone() async throws {
            let content = Data("I am a blob".utf8)
            for (blobLocal, pickLocal) in [(true, false), (true, true), (false, true), (false, false)] {
                let local = try SyncTestDatabase()
                let remote = try await ListeningPeer()
                let blob = Blob(contentType: "text/plain", data: content)
                try await makeConflict(
                    "doc", local: local, remote: remote, localJSON: #"{"key1":"value1"}"#,
                    remoteJSON: #"{"key2":"value2"}"#, localBlob: blobLocal ? blob : nil,
                    remoteBlob: blobLocal ? nil : blob)
                _ = try await pull(
                    local, remote, resolver: Resolver { pickLocal ? $0.localDocument : $0.remoteDocument })
                let resolved = try #require(try local.collection.document(id: "doc"))
                if blobLocal == pickLocal {
                    #expect(resolved.blob(forKey: "blob") == blob)
                    #expect(resolved.blob(forKey: "blob")?.content == content)
                } else {
                    #expect(resolved.blob(forKey: "blob") == nil)
                }
                #expect(resolved.string(forKey: pickLocal ? "key1" : "key2") != nil)
                #expect(resolved.string(forKey: pickLocal ? "key2" : "key1") == nil)
                await remote.stop()
            }
        }

        // covers: ReplicatorTest_CustomConflict.testConflictResolverReturningBlobFromDifferentDB
        @Test func aBlobFromAnotherDatabaseIsRefusedButTheRemoteSidesBlobIsFine() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            let blob = Blob(contentType: "text/plain", data: Data("I am a blob".utf8))
            try await makeConflict(
                "doc", local: local, remote: remote, localJSON: #"{"key1":"value1"}"#,
                remoteJSON: #"{"key2":"value2"}"#,
                remoteBlob: blob)
            // The remote side's blob, pulled into this database, may go into the resolution.
            let fine = try await pull(
                local, remote,
                resolver: Resolver { conflict in
                    conflict.localDocument?.toMutable().setValue(
                        conflict.remoteDocument?.blob(forKey: "blob"), forKey: "blob")
                })
            #expect(fine.pulled.map(\.id) == ["doc"])
            #expect(fine.pulled.allSatisfy { $0.error == nil })
            #expect(try local.collection.document(id: "doc")?.blob(forKey: "blob")?.content == blob.content)

            // A blob of the remote database's own document is not this database's.
            let theirs = try #require(try remote.collection.document(id: "doc"))
            try await makeConflict(
                "doc", local: local, remote: remote, localJSON: #"{"key1":"value1"}"#,
                remoteJSON: #"{"key2":"value2"}"#,
                remoteBlob: blob)
            let refused = try await pull(
                local, remote,
                resolver: Resolver { conflict in
                    conflict.localDocument?.toMutable().setValue(theirs.blob(forKey: "blob"), forKey: "blob")
                })
            let error = try #require(refused.pulled.first?.error)
            #expect(error.code == .unexpectedError)
            #expect(
                error.message
                    == "A document contains a blob that was saved to a different database. The save operation cannot complete."
            )
            await remote.stop()
        }

        // covers: ReplicatorTest_CustomConflict.testConflictResolverDifferentDBDoc
        @Test func aDocumentOfAnotherDatabaseIsRefusedAndTheConflictWaitsForTheNextRun() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try await makeConflict(
                "doc", local: local, remote: remote, localJSON: #"{"key1":"value1"}"#, remoteJSON: #"{"key2":"value2"}"#
            )
            let collection = remote.collection
            let refused = try await pull(local, remote, resolver: Resolver { _ in try? collection.document(id: "doc") })
            let error = try #require(refused.pulled.first?.error)
            #expect(error.code == .conflict)
            #expect(try local.collection.conflictingRevisionIDs(id: "doc").count == 1)

            // Nothing new on the remote, yet the next pull resolves what was left.
            let resolver = Resolver { $0.remoteDocument }
            let next = try await pull(local, remote, resolver: resolver)
            #expect(resolver.seen.count == 1)
            #expect(resolver.seen.first?.localDocument?.string(forKey: "key1") == "value1")
            #expect(next.pulled.map(\.id) == ["doc"])
            #expect(next.pulled.first?.error == nil)
            #expect(try body(local.collection, "doc") == #"{"key2":"value2"}"#)
            #expect(try local.collection.conflictingRevisionIDs(id: "doc").isEmpty)
            await remote.stop()
        }

        // covers: ReplicatorTest_CustomConflict.testDocumentReplicationEventForConflictedDocs
        @Test func aConflictedDocumentGivesOneEventWhateverTheResolution() async throws {
            let picks: [@Sendable (Collection) -> Resolver] = [
                { other in Resolver { _ in try? other.document(id: "doc") } },
                { _ in Resolver { _ in MutableDocument() } },
                { _ in Resolver { $0.remoteDocument } },
            ]
            for pick in picks {
                let local = try SyncTestDatabase()
                let remote = try await ListeningPeer()
                try await makeConflict(
                    "doc", local: local, remote: remote, localJSON: #"{"key1":"value1"}"#,
                    remoteJSON: #"{"key2":"value2"}"#)
                let runner = try await pull(local, remote, resolver: pick(remote.collection))
                #expect(runner.pulled.map(\.id) == ["doc"])
                await remote.stop()
            }
        }

        @Test func aLeftOverConflictWithAPeerWithoutRevsDiffTakesTheCurrentRevisionAsLocal() async throws {
            let local = try SyncTestDatabase()
            try local.save("doc", #"{"v": "local"}"#)
            let pulledRevision = "1-" + String(repeating: "f", count: 40)
            try local.collection.insert(
                ForeignRevision(
                    documentID: "doc", revisionID: pulledRevision, ancestors: [], isDeleted: false,
                    body: ["v": .string("pulled")]),
                keepingCurrent: true)
            #expect(try local.collection.conflictingRevisionIDs(id: "doc") == [pulledRevision])
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
            let resolver = Resolver { $0.localDocument }
            let runner = ReplicatorRunner(
                replicatorConfig(
                    [local.collection], peer.url(), type: .pull,
                    config: CollectionConfiguration(conflictResolver: resolver)))
            let status = try await runner.run()
            #expect(status.error == nil, "\(String(describing: status.error))")
            peer.stop()
            #expect(resolver.seen.first?.localDocument?.string(forKey: "v") == "local")
            #expect(resolver.seen.first?.remoteDocument?.string(forKey: "v") == "pulled")
            #expect(runner.pulled.map(\.id) == ["doc"])
            #expect(try local.collection.document(id: "doc")?.string(forKey: "v") == "local")
            #expect(try local.collection.conflictingRevisionIDs(id: "doc").isEmpty)
        }

        // covers: ReplicatorTest_CustomConflict.testConflictResolverWrongDocID
        @Test func aResolutionWithAnotherIDGivesItsBodyToTheConflictedDocument() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try await makeConflict(
                "doc", local: local, remote: remote, localJSON: #"{"key1":"value1"}"#, remoteJSON: #"{"key2":"value2"}"#
            )
            let runner = try await pull(
                local, remote,
                resolver: Resolver { _ in MutableDocument(id: "wrong-doc-id").setValue("update", forKey: "edit") })
            #expect(runner.pulled.map(\.id) == ["doc"])
            #expect(runner.pulled.first?.error == nil)
            #expect(local.collection.count == 1)
            #expect(try body(local.collection, "doc") == #"{"edit":"update"}"#)
            #expect(try local.collection.document(id: "wrong-doc-id") == nil)
            await remote.stop()
        }

        // covers: ReplicatorTest_CustomConflict.testConflictResolverWhenDocumentIsPurged
        @Test func aDocumentPurgedByTheResolverEndsWithNotFound() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try await makeConflict(
                "doc", local: local, remote: remote, localJSON: #"{"key1":"value1"}"#, remoteJSON: #"{"key2":"value2"}"#
            )
            let collection = local.collection
            let runner = try await pull(
                local, remote,
                resolver: Resolver { conflict in
                    try? collection.purge(id: conflict.documentID)
                    return conflict.remoteDocument
                })
            #expect(runner.pulled.first?.error?.code == .notFound)
            #expect(try local.collection.document(id: "doc") == nil)
            await remote.stop()
        }

        // covers: ReplicatorTest_CustomConflict.testConflictResolverCalledTwice
        @Test func aResolverThatChangesTheDocumentIsCalledAgainOnTheNewRevision() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try await makeConflict(
                "doc", local: local, remote: remote, localJSON: #"{"key1":"value1"}"#, remoteJSON: #"{"key2":"value2"}"#
            )
            // Until it is resolved, the local side stays the document the app reads and edits.
            let collection = local.collection
            let readDuringConflict = SeenIDs()
            let resolver = Resolver { conflict in
                if let saved = (try? collection.document(id: "doc"))??.toMutable() {
                    readDuringConflict.add(saved.string(forKey: "key1") ?? "remote side")
                    if !saved.contains(key: "secondUpdate") {
                        saved.setValue(true, forKey: "secondUpdate")
                        _ = try? collection.save(document: saved)
                    }
                }
                return conflict.localDocument?.toMutable().setValue("local", forKey: "edit")
            }
            _ = try await pull(local, remote, resolver: resolver)
            #expect(resolver.seen.count == 2)
            #expect(readDuringConflict.all == ["value1", "value1"])
            #expect(resolver.seen.last?.localDocument?.boolean(forKey: "secondUpdate") == true)
            #expect(local.collection.count == 1)
            #expect(try body(local.collection, "doc") == #"{"edit":"local","key1":"value1","secondUpdate":true}"#)
            #expect(try local.collection.conflictingRevisionIDs(id: "doc").isEmpty)
            await remote.stop()
        }

        // covers: ReplicatorTest_CustomConflict.testNonBlockingDatabaseOperationConflictResolver
        @Test func aResolverMaySaveOtherDocuments() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            try await makeConflict(
                "doc1", local: local, remote: remote, localJSON: #"{"key1":"value1"}"#,
                remoteJSON: #"{"key2":"value2"}"#)
            let collection = local.collection
            let saved = SeenIDs()
            let resolver = Resolver { conflict in
                let stamp = "\(Date())"
                let other = MutableDocument(id: "doc2").setValue(stamp, forKey: "timestamp")
                if (try? collection.save(document: other, concurrencyControl: .failOnConflict)) == true,
                    (try? collection.document(id: "doc2"))??.string(forKey: "timestamp") == stamp
                {
                    saved.add("doc2")
                }
                return conflict.remoteDocument
            }
            _ = try await pull(local, remote, resolver: resolver)
            #expect(resolver.seen.count == 1)
            #expect(saved.all == ["doc2"])
            #expect(try body(local.collection, "doc1") == #"{"key2":"value2"}"#)
            await remote.stop()
        }

        @Test func manyConflictsAreResolvedAFewAtATime() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            let ids = (0..<16).map { "doc\($0)" }
            for id in ids { try local.save(id, "{}") }
            _ = try await ReplicatorRunner(replicatorConfig([local.collection], remote.url, type: .push)).run()
            for id in ids {
                for (collection, side) in [(local.collection, "local"), (remote.collection, "remote")] {
                    let edited = try #require(try collection.document(id: id)).toMutable()
                    edited.setValue(side, forKey: "side")
                    try collection.save(document: edited)
                }
            }
            let cap = ConflictResolution.maximumConcurrent
            let running = Locked((now: 0, most: 0))
            let resolver = Resolver { conflict in
                running.withLock {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                // Hold until a full set has run together, so a missing cap would show (bounded).
                let deadline = Date().addingTimeInterval(60)
                while running.withLock({ $0.most }) < cap, Date() < deadline { usleep(1000) }
                running.withLock { $0.now -= 1 }
                return conflict.remoteDocument
            }
            let runner = try await pull(local, remote, resolver: resolver)
            #expect(resolver.seen.count == ids.count)
            #expect(running.withLock { $0.most } == cap)
            #expect(Set(runner.pulled.map(\.id)) == Set(ids))
            #expect(runner.pulled.allSatisfy { $0.error == nil })
            for id in ids { #expect(try local.collection.document(id: id)?.string(forKey: "side") == "remote") }
            await remote.stop()
        }

        // covers: ReplicatorTest_CustomConflict.testNonBlockingConflictResolver
        @Test func conflictsAreResolvedConcurrently() async throws {
            let local = try SyncTestDatabase()
            let remote = try await ListeningPeer()
            for id in ["doc1", "doc2"] {
                try await makeConflict(
                    id, local: local, remote: remote, localJSON: #"{"key1":"value1"}"#,
                    remoteJSON: #"{"key2":"value2"}"#)
            }
            let order = SeenIDs()
            let secondDone = DispatchSemaphore(value: 0)
            let resolver = Resolver { conflict in
                if order.adding(conflict.documentID) == 1 {
                    // The first resolution waits (bounded) for the second to finish meanwhile.
                    _ = secondDone.wait(timeout: .now() + 60)
                    order.add(conflict.documentID)
                } else {
                    order.add(conflict.documentID)
                    secondDone.signal()
                }
                return conflict.remoteDocument
            }
            _ = try await pull(local, remote, resolver: resolver)
            let seen = order.all
            #expect(seen.count == 4)
            #expect(seen.first == seen.last)
            #expect(seen.count == 4 && seen[1] == seen[2] && seen[1] != seen[0])
            await remote.stop()
        }
    }
}
