import Foundation
import Quire
import Testing

@testable import QuireSync

/// The doctor's comparison, input by input, against checkpoints written by hand.
@Suite struct CheckpointDoctorTests {
    private func store(_ inputs: CheckpointInputs, in collection: Collection, path: String? = nil) throws {
        let checkpoint = ReplicationCheckpoint(
            sessionID: "s", remoteSequence: ChangesSequence(9), localSequence: 2,
            history: [ReplicationCheckpoint.session("s", ChangesSequence(9), 2)], inputs: inputs, databasePath: path,
            revision: nil)
        try collection.setLocalDocument(id: inputs.checkpointID, body: checkpoint.json(local: true))
    }

    @Test func noCheckpointAtAll() throws {
        let local = try SyncTestDatabase()
        let diagnosis = try CheckpointDoctor(database: local.database).diagnose(
            collection: local.collection, url: try #require(URL(string: "http://h/db")))
        #expect(!diagnosis.willResume)
        #expect(diagnosis.differences == [.noCheckpoint])
        #expect(diagnosis.storedCheckpointCount == 0)
    }

    @Test func namesEachDifferingInput() throws {
        let local = try SyncTestDatabase()
        let uuid = try local.database.privateUUID()
        let path = DatabaseLocation.path(of: local.database)
        try store(
            CheckpointInputs(
                uuid: uuid, remoteURL: try NormalizedURL(string: "https://Sync.Example.com/travel"),
                collection: "_default._default", channels: ["a"], filter: "app/f", filterParameters: ["k": "1"],
                documentIDs: ["x"]), in: local.collection, path: path)
        let doctor = CheckpointDoctor(database: local.database)
        let url = try #require(URL(string: "http://sync.example.com:4984/travel2"))
        let diagnosis = try doctor.diagnose(
            collection: local.collection, url: url, channels: ["b"], documentIDs: ["y"], filter: "app/g",
            filterParameters: ["k": "2"])
        #expect(!diagnosis.willResume)
        #expect(
            diagnosis.differences == [
                .scheme(expected: "http", recorded: "https"), .port(expected: 4984, recorded: 443),
                .path(expected: "/travel2", recorded: "/travel"), .channels(expected: ["b"], recorded: ["a"]),
                .filter(expected: "app/g", recorded: "app/f"),
                .filterParameters(expected: ["k": "2"], recorded: ["k": "1"]),
                .documentIDs(expected: ["y"], recorded: ["x"]),
            ])
        #expect(diagnosis.description.contains("URL form"))

        // The same inputs, written another way, resume.
        let resumed = try doctor.diagnose(
            collection: local.collection, url: try #require(URL(string: "HTTPS://sync.example.com:443/travel/")),
            channels: ["a"], documentIDs: ["x"], filter: "app/f", filterParameters: ["k": "1"])
        #expect(resumed.willResume)
        #expect(resumed.description.contains("will resume"))
    }

    @Test func aForeignUUIDIsNamed() throws {
        let local = try SyncTestDatabase()
        try store(
            CheckpointInputs(
                uuid: "SOMEONE-ELSE", remoteURL: try NormalizedURL(string: "http://h/db"),
                collection: "_default._default"),
            in: local.collection)
        let diagnosis = try CheckpointDoctor(database: local.database).diagnose(
            collection: local.collection, url: try #require(URL(string: "http://h/db")))
        guard case .uuid(let recorded, let known)? = diagnosis.differences.first else {
            Issue.record("expected a UUID difference, got \(diagnosis.differences)")
            return
        }
        #expect(recorded == "SOMEONE-ELSE")
        #expect(known == [try local.database.privateUUID()])
    }
}
