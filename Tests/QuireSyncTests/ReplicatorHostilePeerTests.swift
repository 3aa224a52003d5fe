import Foundation
import Quire
import Testing
@testable import QuireSync

extension EndToEnd {
    /// A scripted CouchDB-protocol peer that sends broken or hostile answers: each one ends the
    /// replication with a clear error and stores no partial document.
    @Suite struct ReplicatorHostilePeerTests {
        /// A peer with an empty-ish database whose `_changes`, `_bulk_get` and `open_revs`
        /// answers are scripted.
        private func peer(
            changes: @escaping @Sendable () -> ScriptedPeer.Reply,
            bulkGet: @escaping @Sendable () -> ScriptedPeer.Reply = { .json(404, #"{"error":"not_found"}"#) },
            openRevs: @escaping @Sendable () -> ScriptedPeer.Reply = { .json(404, #"{"error":"not_found"}"#) }
        ) throws -> ScriptedPeer {
            try ScriptedPeer { request in
                switch (request.method, request.path) {
                case ("GET", "/db"): return .json(200, #"{"db_name":"db","update_seq":1}"#)
                case ("GET", let path) where path.hasPrefix("/db/_local/"): return .json(404, #"{"error":"not_found"}"#)
                case ("PUT", let path) where path.hasPrefix("/db/_local/"): return .json(201, #"{"ok":true,"rev":"0-1"}"#)
                case (_, "/db/_changes"): return changes()
                case ("POST", "/db/_bulk_get"): return bulkGet()
                case ("POST", "/db/_revs_diff"): return .json(200, "{}")
                case ("POST", "/db/_bulk_docs"): return .json(201, "[]")
                case ("GET", _): return openRevs()
                default: return .json(404, #"{"error":"not_found"}"#)
                }
            }
        }

        private static let oneChange = #"{"results":[{"seq":1,"id":"a","changes":[{"rev":"1-abc"}]}],"last_seq":1}"#

        private static func bulkGet(_ document: String) -> ScriptedPeer.Reply {
            .json(200, #"{"results":[{"id":"a","docs":[{"ok":"# + document + "}]}]}")
        }

        /// Pulls from `peer` and expects a remoteError mentioning `fragment`, with nothing stored.
        private func expectFailure(
            _ peer: ScriptedPeer, mentioning fragment: String, configure: (inout ReplicatorConfiguration) -> Void = { _ in }
        ) async throws {
            let local = try SyncTestDatabase()
            let outcome = try await replicate(local.collection, with: peer.url(), type: .pull, configure: configure)
            let error = try #require(outcome.status.error)
            #expect(error.code == .remoteError)
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(!outcome.activities.contains(.offline))
            #expect(try local.collection.revisionInfo(id: "a") == nil)
            #expect(try local.collection.lastSequence() == 0)
            #expect(try local.collection.localDocumentIDs().isEmpty)
            peer.stop()
        }

        @Test func truncatedJSON() async throws {
            let peer = try peer(changes: { .json(200, String(ReplicatorHostilePeerTests.oneChange.dropLast(9))) })
            try await expectFailure(peer, mentioning: "malformed _changes response")
        }

        @Test func wrongTypes() async throws {
            let changesWithNumberRev = #"{"results":[{"seq":1,"id":"a","changes":[{"rev":1}]}],"last_seq":1}"#
            try await expectFailure(try peer(changes: { .json(200, changesWithNumberRev) }), mentioning: "rev")

            let stringStart = #"{"_id":"a","_rev":"1-abc","_revisions":{"start":"1","ids":["abc"]},"v":1}"#
            try await expectFailure(
                try peer(changes: { .json(200, ReplicatorHostilePeerTests.oneChange) }, bulkGet: { Self.bulkGet(stringStart) }),
                mentioning: "_revisions")

            let deletedAsString = #"{"_id":"a","_rev":"1-abc","_deleted":"yes"}"#
            try await expectFailure(
                try peer(changes: { .json(200, ReplicatorHostilePeerTests.oneChange) }, bulkGet: { Self.bulkGet(deletedAsString) }),
                mentioning: "_deleted")
        }

        @Test func hugeNumbers() async throws {
            let hugeGeneration = #"{"results":[{"seq":1,"id":"a","changes":[{"rev":"99999999999999999999-abc"}]}],"last_seq":1}"#
            try await expectFailure(try peer(changes: { .json(200, hugeGeneration) }), mentioning: "not a revision ID")

            let hugeSequence = #"{"results":[{"seq":1e999,"id":"a","changes":[{"rev":"1-abc"}]}],"last_seq":1}"#
            try await expectFailure(try peer(changes: { .json(200, hugeSequence) }), mentioning: "malformed _changes response")

            let hugeStart = #"{"_id":"a","_rev":"1-abc","_revisions":{"start":123456789012345678901234567890,"ids":["abc"]}}"#
            try await expectFailure(
                try peer(changes: { .json(200, ReplicatorHostilePeerTests.oneChange) }, bulkGet: { Self.bulkGet(hugeStart) }),
                mentioning: "_revisions")
        }

        @Test func missingFields() async throws {
            let noID = #"{"results":[{"seq":1,"changes":[{"rev":"1-abc"}]}],"last_seq":1}"#
            try await expectFailure(try peer(changes: { .json(200, noID) }), mentioning: "'id'")

            let noResults = #"{"last_seq":1}"#
            try await expectFailure(try peer(changes: { .json(200, noResults) }), mentioning: "results")

            let noDocs = #"{"results":[{"id":"a"}]}"#
            try await expectFailure(
                try peer(changes: { .json(200, ReplicatorHostilePeerTests.oneChange) }, bulkGet: { .json(200, noDocs) }),
                mentioning: "docs")

            let noRev = #"{"_id":"a","v":1}"#
            try await expectFailure(
                try peer(changes: { .json(200, ReplicatorHostilePeerTests.oneChange) }, bulkGet: { Self.bulkGet(noRev) }),
                mentioning: "_rev")
        }

        @Test func deepNestingAndOversizedResponses() async throws {
            let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            let nested = #"{"results":[{"seq":1,"id":"a","changes":[{"rev":"1-abc"}],"x":"# + deep + "}],\"last_seq\":1}"
            try await expectFailure(try peer(changes: { .json(200, nested) }), mentioning: "malformed _changes response")

            let padding = String(repeating: " ", count: 300_000)
            let large = try peer(changes: { .json(200, padding + ReplicatorHostilePeerTests.oneChange) })
            try await expectFailure(large, mentioning: "exceeds 100000 bytes") { $0.maximumResponseBytes = 100_000 }
        }

        @Test func documentOtherThanAskedFor() async throws {
            let other = #"{"_id":"b","_rev":"1-abc","v":1}"#
            try await expectFailure(
                try peer(changes: { .json(200, ReplicatorHostilePeerTests.oneChange) }, bulkGet: { Self.bulkGet(other) }),
                mentioning: "'b'")
        }

        @Test func blobWhoseBytesDoNotMatchItsDigest() async throws {
            let data = Data("real bytes".utf8).base64EncodedString()
            let digest = "sha1-" + Digest.base64(SHA1.hash(data: Data("other bytes".utf8)))
            let document = """
                {"_id":"a","_rev":"1-abc","photo":{"@type":"blob","digest":"\(digest)","length":10},
                 "_attachments":{"blob_/photo":{"digest":"\(digest)","length":10,"data":"\(data)"}}}
                """
            try await expectFailure(
                try peer(changes: { .json(200, ReplicatorHostilePeerTests.oneChange) }, bulkGet: { Self.bulkGet(document) }),
                mentioning: "digest")
        }

        @Test func blobWithoutItsBytes() async throws {
            let digest = "sha1-" + Digest.base64(SHA1.hash(data: Data("absent".utf8)))
            let document = #"{"_id":"a","_rev":"1-abc","photo":{"@type":"blob","digest":"\#(digest)","length":6}}"#
            try await expectFailure(
                try peer(changes: { .json(200, ReplicatorHostilePeerTests.oneChange) }, bulkGet: { Self.bulkGet(document) }),
                mentioning: "blob")
        }

        @Test func fallsBackToOpenRevsWithoutBulkGet() async throws {
            let document = #"{"_id":"a","_rev":"1-abc","_revisions":{"start":1,"ids":["abc"]},"v":42}"#
            let peer = try peer(
                changes: { .json(200, ReplicatorHostilePeerTests.oneChange) }, bulkGet: { .json(405, #"{"error":"method_not_allowed"}"#) },
                openRevs: { .json(200, #"[{"ok":"# + document + "}]") })
            let local = try SyncTestDatabase()
            let outcome = try await replicate(local.collection, with: peer.url(), type: .pull)
            #expect(outcome.status.error == nil)
            #expect(try local.collection.document(id: "a")?.int(forKey: "v") == 42)
            let openRevs = try #require(peer.requests.first { $0.method == "GET" && $0.path == "/db/a" })
            let query = openRevs.query.removingPercentEncoding ?? ""
            #expect(query.contains(#"open_revs=["1-abc"]"#))
            #expect(query.contains("revs=true") && query.contains("latest=true") && query.contains("attachments=true"))
            peer.stop()
        }

        @Test func removedAccessPurgesTheLocalDocument() async throws {
            let local = try SyncTestDatabase()
            try local.collection.insert(
                ForeignRevision(documentID: "a", revisionID: "1-abc", ancestors: [], isDeleted: false, body: ["v": 1]))
            let changes = #"{"results":[{"seq":2,"id":"a","removed":["news"],"changes":[{"rev":"2-def"}]}],"last_seq":2}"#
            let removed = #"{"_id":"a","_rev":"2-def","_removed":true}"#
            let peer = try peer(changes: { .json(200, changes) }, bulkGet: { Self.bulkGet(removed) })
            let outcome = try await replicate(local.collection, with: peer.url(), type: .pull)
            #expect(outcome.status.error == nil)
            #expect(try local.collection.revisionInfo(id: "a") == nil)
            #expect(outcome.pulled.map(\.flags) == [.accessRemoved])
            peer.stop()
        }

        @Test func serviceUnavailableIsRetried() async throws {
            let calls = Counter()
            let peer = try peer(changes: {
                calls.next() < 2 ? .json(503, #"{"error":"unavailable"}"#) : .json(200, #"{"results":[],"last_seq":0}"#)
            })
            let local = try SyncTestDatabase()
            let outcome = try await replicate(local.collection, with: peer.url(), type: .pull)
            #expect(outcome.status.error == nil)
            #expect(outcome.activities.filter { $0 == .offline }.count == 2)
            peer.stop()
        }

        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func next() -> Int {
                lock.withLock {
                    defer { value += 1 }
                    return value
                }
            }
        }
    }
}
