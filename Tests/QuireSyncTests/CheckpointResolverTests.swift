import Foundation
import Quire
import Testing

@testable import QuireSync

/// Where replication starts when the two checkpoints agree, disagree, or are missing.
@Suite struct CheckpointResolverTests {
    private typealias Session = (id: String, remote: Int64, local: UInt64)

    private func checkpoint(_ sessions: [Session], path: String? = "/db") -> ReplicationCheckpoint {
        let history = sessions.map {
            ReplicationCheckpoint.session($0.id, ChangesSequence(UInt64($0.remote)), $0.local)
        }
        let newest = sessions.first ?? ("none", 0, 0)
        return ReplicationCheckpoint(
            sessionID: newest.id, remoteSequence: ChangesSequence(UInt64(newest.remote)), localSequence: newest.local,
            history: history, inputs: nil, databasePath: path, revision: nil)
    }

    private func resolve(_ local: ReplicationCheckpoint?, _ remote: ReplicationCheckpoint?, readUUID: String? = "U")
        -> CheckpointResolver.Resolution
    {
        CheckpointResolver.resolve(
            local: local, remote: remote, currentUUID: "U", readUUID: readUUID, databasePath: "/db")
    }

    @Test func agreementResumesFromTheLatestSession() {
        let sessions: [Session] = [("s2", 40, 7), ("s1", 20, 3)]
        let result = resolve(checkpoint(sessions), checkpoint(sessions))
        #expect(result.outcome == .resumed)
        #expect(result.remoteSequence == ChangesSequence(40))
        #expect(result.localSequence == 7)
        #expect(result.warnings.isEmpty)
    }

    @Test func localAheadFallsBackToTheLatestCommonSession() {
        // The remote write of s3 failed: the remote stops at s2.
        let result = resolve(
            checkpoint([("s3", 60, 9), ("s2", 40, 7), ("s1", 20, 3)]), checkpoint([("s2", 40, 7), ("s1", 20, 3)]))
        #expect(result.outcome == .resumedFromCommonSession("s2"))
        #expect(result.remoteSequence == ChangesSequence(40))
        #expect(result.localSequence == 7)
        #expect(result.warnings.isEmpty)
    }

    @Test func remoteAheadFallsBackToo() {
        // The local write failed, or the database came back from a backup.
        let result = resolve(checkpoint([("s1", 20, 3)]), checkpoint([("s2", 40, 7), ("s1", 20, 3)]))
        #expect(result.outcome == .resumedFromCommonSession("s1"))
        #expect(result.remoteSequence == ChangesSequence(20))
        #expect(result.warnings.isEmpty)
    }

    @Test func differingRecordsOfOneSessionTakeTheEarlierOfEach() throws {
        let result = resolve(checkpoint([("s1", 50, 3)]), checkpoint([("s1", 20, 9)]))
        #expect(result.outcome == .resumed)
        #expect(result.remoteSequence == ChangesSequence(20))
        #expect(result.localSequence == 3)
        let opaque = try ChangesSequence(json: .string("12-g1AAAA"))
        #expect(try CheckpointResolver.earlier(opaque, ChangesSequence(json: .string("13-g1BBBB"))) == .zero)
        #expect(CheckpointResolver.earlier(opaque, opaque) == opaque)
        #expect(
            try CheckpointResolver.earlier(ChangesSequence(json: .int(9)), ChangesSequence(json: .string("7"))).value
                == .string("7"))
    }

    @Test func noCommonSessionStartsOver() {
        let result = resolve(checkpoint([("a", 10, 1)]), checkpoint([("b", 30, 2)]))
        #expect(result.outcome == .noCommonSession)
        #expect(result.remoteSequence == .zero)
        #expect(result.localSequence == 0)
    }

    @Test func missingSidesStartOver() {
        #expect(resolve(nil, checkpoint([("a", 10, 1)])).outcome == .noLocalCheckpoint)
        #expect(resolve(checkpoint([("a", 10, 1)]), nil).outcome == .noRemoteCheckpoint)
    }

    @Test func twoInstallsWithOneUUIDAreDetected() {
        // Installs A and B, file copies of one database, both replicated since s0: each
        // overwrote the remote checkpoint with its own session.
        let installA = checkpoint([("a1", 50, 9), ("s0", 20, 3)])
        let remoteWrittenByB = checkpoint([("b1", 45, 8), ("s0", 20, 3)])
        let result = resolve(installA, remoteWrittenByB)
        #expect(result.outcome == .resumedFromCommonSession("s0"))
        #expect(result.warnings == [.sharedPrivateUUID(remoteSession: "b1", localSession: "a1")])
    }

    @Test func aCheckpointSavedElsewhereWithThisUUIDIsNotTrusted() {
        let copied = checkpoint([("s0", 20, 3)], path: "/build/fixture.quire/db.sqlite3")
        let result = resolve(copied, checkpoint([("s0", 20, 3)]))
        #expect(result.outcome == .uuidNotRegenerated(recordedPath: "/build/fixture.quire/db.sqlite3"))
        #expect(result.remoteSequence == .zero)
        // Found under a previous UUID (Database.copy), another path is expected.
        #expect(resolve(copied, checkpoint([("s0", 20, 3)]), readUUID: "OLD").outcome == .resumed)
    }

    @Test func checkpointDocumentsRoundTripAndRejectBadSequences() throws {
        let original = checkpoint([("s2", 40, 7), ("s1", 20, 3)])
        let read = try ReplicationCheckpoint(json: original.json(local: true), origin: "test")
        #expect(read.history.map(\.sessionID) == ["s2", "s1"])
        #expect(read.history.map(\.localSequence) == [7, 3])
        #expect(read.localSequence == 7)
        #expect(read.databasePath == "/db")
        #expect(original.json(local: false)["database_path"] == nil)

        var broken = original.json(local: false)
        broken["local_last_seq"] = .string("many")
        #expect(throws: QuireError.self) { try ReplicationCheckpoint(json: broken, origin: "test") }
        broken = original.json(local: false)
        broken["source_last_seq"] = .array([])
        #expect(throws: QuireError.self) { try ReplicationCheckpoint(json: broken, origin: "test") }
    }

    @Test func historyIsCapped() {
        let sessions = (0..<30).map { Session("s\($0)", Int64($0), UInt64($0)) }
        #expect(checkpoint(sessions).history.count == ReplicationCheckpoint.historyLimit)
    }
}
