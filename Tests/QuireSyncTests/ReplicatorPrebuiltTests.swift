import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

extension EndToEnd {
    /// The prebuilt-database case: a database built by pulling, installed with `Database.copy`,
    /// resumes from the checkpoint made while building; every mismatch starts over, and the
    /// doctor names it.
    @Suite(.serialized) struct ReplicatorPrebuiltTests {
        static let total = 40
        static let changed = 5

        /// A remote with `total` documents in channel `news`, a fixture built by pulling them,
        /// then `changed` of them edited on the remote.
        final class Setup: @unchecked Sendable {
            let remote: ListeningPeer
            let fixture: SyncTestDatabase
            let fixtureUUID: String

            init() async throws {
                let remote = try await ListeningPeer()
                try remote.database.inBatch {
                    for index in 0..<ReplicatorPrebuiltTests.total {
                        try remote.save("doc-\(index)", #"{"channels": ["news"], "n": \#(index)}"#)
                    }
                }
                self.remote = remote
                fixture = try SyncTestDatabase(name: "fixture")
                fixtureUUID = try fixture.database.privateUUID()
                let built = try await replicate(
                    fixture.collection, with: remote.url, type: .pull,
                    collectionConfig: CollectionConfiguration(channels: ["news"]))
                #expect(built.pulled.count == ReplicatorPrebuiltTests.total)
                for index in 0..<ReplicatorPrebuiltTests.changed {
                    let document = try #require(try remote.collection.document(id: "doc-\(index)")).toMutable()
                    document.setValue("edited", forKey: "state")
                    try remote.collection.save(document: document)
                }
            }

            /// Installs the fixture the right way, as `name` (a snapshot: the fixture stays open).
            func install(_ name: String) throws -> Database {
                try Database.copySnapshot(
                    fromPath: fixture.database.path, toDatabase: name,
                    withConfig: DatabaseConfiguration(directory: fixture.directory.path))
                return try fixture.sibling(name)
            }

            /// Copies the fixture's files, keeping its UUID: the wrong way.
            func fileCopy(_ name: String) throws -> Database {
                let target = fixture.directory.appendingPathComponent("\(name).quire")
                try FileManager.default.copyItem(
                    at: URL(fileURLWithPath: fixture.database.path), to: target)
                return try fixture.sibling(name)
            }

            func pull(_ database: Database, url: URL? = nil, channels: [String] = ["news"]) async throws
                -> ReplicationOutcome
            {
                try await replicate(
                    try database.defaultCollection(), with: url ?? remote.url, type: .pull,
                    collectionConfig: CollectionConfiguration(channels: channels))
            }

            func doctor(_ database: Database, url: URL? = nil, channels: [String] = ["news"]) throws
                -> CheckpointDiagnosis
            {
                try CheckpointDoctor(database: database).diagnose(
                    collection: try database.defaultCollection(), url: url ?? remote.url, channels: channels)
            }
        }

        private func expectFullPull(_ outcome: ReplicationOutcome) {
            #expect(outcome.status.error == nil)
            #expect(outcome.report?.isResumed == false)
            #expect(outcome.report?.remoteSequence == "0")
            // Every change is looked at again; only the edited ones are missing, so only they travel.
            #expect(outcome.status.progress.total == UInt64(Self.total))
            #expect(outcome.pulled.count == Self.changed)
        }

        @Test func installedCopyResumesAndPullsExactlyTheChangedDocuments() async throws {
            let setup = try await Setup()
            let installed = try setup.install("installed")
            #expect(try installed.previousPrivateUUIDs() == [setup.fixtureUUID])

            let diagnosis = try setup.doctor(installed)
            #expect(diagnosis.willResume)
            #expect(diagnosis.matchedUUID == setup.fixtureUUID)
            #expect(diagnosis.differences.isEmpty)

            // A URL written differently but normalising the same shares the checkpoint.
            let slashed = try #require(URL(string: setup.remote.url.absoluteString + "/"))
            let outcome = try await setup.pull(installed, url: slashed)
            #expect(outcome.status.error == nil)
            #expect(outcome.report?.outcome == .resumed)
            #expect(outcome.report?.resumedUUID == setup.fixtureUUID)
            #expect(outcome.status.progress.total == UInt64(Self.changed))
            #expect(Set(outcome.pulled.map(\.id)) == Set((0..<Self.changed).map { "doc-\($0)" }))
            #expect(try installed.defaultCollection().document(id: "doc-0")?.string(forKey: "state") == "edited")

            // The next run uses the installed database's own checkpoint.
            let again = try await setup.pull(installed)
            #expect(again.report?.outcome == .resumed)
            #expect(again.report?.resumedUUID == (try installed.privateUUID()))
            #expect(again.pulled.isEmpty)
            try installed.close()
            await setup.remote.stop()
        }

        @Test func otherChannelsStartOver() async throws {
            let setup = try await Setup()
            let installed = try setup.install("installed")
            let diagnosis = try setup.doctor(installed, channels: ["news", "sports"])
            #expect(!diagnosis.willResume)
            #expect(diagnosis.differences == [.channels(expected: ["news", "sports"], recorded: ["news"])])
            let outcome = try await setup.pull(installed, channels: ["news", "sports"])
            #expect(outcome.report?.outcome == .noLocalCheckpoint)
            expectFullPull(outcome)
            try installed.close()
            await setup.remote.stop()
        }

        @Test func otherPathStartsOver() async throws {
            let setup = try await Setup()
            // The same data served at another path: /db instead of /remote.
            let sameFile = Database(path: setup.remote.database.filePath)
            let other = URLEndpointListener(
                config: URLEndpointListenerConfiguration(
                    collections: [try sameFile.defaultCollection()], networkInterface: "127.0.0.1"))
            try await other.start()
            let otherURL = try #require(URL(string: "http://127.0.0.1:\(other.port ?? 0)/db"))
            let installed = try setup.install("installed")

            let diagnosis = try setup.doctor(installed, url: otherURL)
            #expect(!diagnosis.willResume)
            #expect(diagnosis.differences.contains(.path(expected: "/db", recorded: "/remote")))
            #expect(
                diagnosis.differences.contains(.port(expected: Int(other.port ?? 0), recorded: Int(setup.remote.port))))
            #expect(!diagnosis.differences.contains { if case .channels = $0 { return true } else { return false } })

            let outcome = try await setup.pull(installed, url: otherURL)
            #expect(outcome.report?.outcome == .noLocalCheckpoint)
            expectFullPull(outcome)
            try installed.close()
            await other.stop()
            await setup.remote.stop()
        }

        @Test func fileCopyKeepingTheUUIDIsDetectedAndStartsOver() async throws {
            let setup = try await Setup()
            let copied = try setup.fileCopy("copied")
            #expect(try copied.privateUUID() == setup.fixtureUUID)

            let diagnosis = try setup.doctor(copied)
            #expect(!diagnosis.willResume)
            guard case .uuidNotRegenerated(let recorded, let current)? = diagnosis.differences.first else {
                Issue.record("expected a UUID diagnosis, got \(diagnosis.differences)")
                return
            }
            #expect(recorded.contains("fixture.quire"))
            #expect(current.contains("copied.quire"))
            #expect(diagnosis.description.contains("Database.copy"))

            let outcome = try await setup.pull(copied)
            guard case .uuidNotRegenerated? = outcome.report?.outcome else {
                Issue.record(
                    "expected the replication to distrust the checkpoint, got \(String(describing: outcome.report))")
                return
            }
            #expect(outcome.report?.warnings.isEmpty == false)
            expectFullPull(outcome)
            try copied.close()
            await setup.remote.stop()
        }

        @Test func twoFileCopiesOverwritingOneRemoteCheckpointAreReported() async throws {
            let setup = try await Setup()
            let first = try setup.fileCopy("first")
            let second = try setup.fileCopy("second")
            _ = try await setup.pull(first)
            _ = try await setup.pull(second)
            try setup.remote.save("new", #"{"channels": ["news"]}"#)
            let outcome = try await setup.pull(first)
            #expect(outcome.status.error == nil)
            let warnings = outcome.report?.warnings ?? []
            #expect(warnings.contains { if case .sharedPrivateUUID = $0 { return true } else { return false } })
            #expect(try first.defaultCollection().document(id: "new") != nil)
            try first.close()
            try second.close()
            await setup.remote.stop()
        }

        @Test func doctorOnAFixtureJudgesItAsInstalled() async throws {
            let setup = try await Setup()
            let asFixture = try CheckpointDoctor.diagnose(
                databaseAt: setup.fixture.database.path, mode: .fixture, url: setup.remote.url, channels: ["news"])
            #expect(asFixture.willResume)
            let noCheckpoint = try CheckpointDoctor.diagnose(
                databaseAt: setup.fixture.database.path, mode: .fixture, collection: "_default._default",
                url: setup.remote.url, channels: ["news"], documentIDs: ["doc-1"])
            #expect(noCheckpoint.differences == [.documentIDs(expected: ["doc-1"], recorded: [])])
            await setup.remote.stop()
        }
    }
}
