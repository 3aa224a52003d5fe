import Quire
import Testing

@testable import QuireSync

@Suite struct CheckpointDocumentTests {
    @Test func roundTripsWithHistoryAndExtraMembers() throws {
        let checkpoint = CheckpointDocument(
            sessionID: "s2", sourceLastSequence: ChangesSequence(9),
            history: [
                .init(sessionID: "s2", recordedSequence: ChangesSequence(9), extra: ["docs_written": 3]),
                .init(sessionID: "s1", recordedSequence: ChangesSequence(6)),
            ], revisionID: "0-4")
        let json = checkpoint.json
        #expect(json["session_id"] == "s2")
        #expect(json["source_last_seq"] == "9")
        #expect(json["replication_id_version"] == .int(Int64(QuireSync.replicationIDVersion)))
        #expect(json["_rev"] == "0-4")
        #expect(json["history"]?[0]?["docs_written"] == 3)
        #expect(try CheckpointDocument(json: json) == checkpoint)
    }

    @Test func readsCouchDBCheckpoints() throws {
        let couch: JSONValue = [
            "_id": "_local/abc", "_rev": "0-1", "session_id": "x", "source_last_seq": "12-g1AAAA",
            "history": [["session_id": "x", "recorded_seq": "12-g1AAAA", "start_time": "Mon"]],
            "replication_id_version": 4,
        ]
        let checkpoint = try CheckpointDocument(json: couch)
        #expect(checkpoint.sourceLastSequence.parameter == "12-g1AAAA")
        #expect(checkpoint.replicationIDVersion == 4)
        #expect(checkpoint.history.first?.extra == ["start_time": "Mon"])
    }

    @Test func rejectsIncompleteCheckpoints() {
        let bad: [JSONValue] = [
            ["source_last_seq": 1], ["session_id": "x"], ["session_id": "x", "source_last_seq": true],
            ["session_id": "x", "source_last_seq": 1, "history": [["session_id": "y"]]],
        ]
        for json in bad {
            #expect(throws: QuireError.self, "\(json)") { try CheckpointDocument(json: json) }
        }
    }
}
