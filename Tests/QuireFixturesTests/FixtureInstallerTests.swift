import Foundation
import Quire
import QuireFixturesTestSupport
import Testing

@testable import QuireFixtureBuilder
@testable import QuireFixtures

@Suite struct FixtureInstallerTests {
    private func config(_ scratch: ScratchFolder) -> DatabaseConfiguration {
        DatabaseConfiguration(directory: scratch.file("apps").path)
    }

    /// Every file under `folder` with its bytes.
    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in contents(of: folder) {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test func installsOpensAndQueries() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let database = try withArchiveLock {
            try FixtureInstaller.installIfAbsent(
                archive: try SampleFixture.buildTravel(in: scratch), name: "travel", config: config(scratch),
                temporaryDirectory: try scratch.folder("tmp"))
        }
        defer { try? database.close() }
        #expect(contents(of: scratch.file("tmp")).isEmpty)
        let installed = contents(of: scratch.file("apps"))
        #expect(installed.first == "travel.quire")
        #expect(installed.contains("travel.quire/db.sqlite3"))
        #expect(installed.filter { $0.hasPrefix("travel.quire/Attachments/") && $0.hasSuffix(".blob") }.count == 2)
        #expect(!installed.contains { $0.hasPrefix(".") }, "\(installed)")
        let hotels = try #require(try database.collection(name: "hotel", scope: "inventory"))
        #expect(hotels.count == 4)
        #expect(try hotels.document(id: "hotel_2")?.string(forKey: "type") == "hotel")
        let collections = try database.collections(scope: "inventory").map(\.name)
        #expect(collections.sorted() == ["airline", "airport", "hotel", "landmark", "route"])
    }

    @Test func eachCopyGetsANewUUIDAndKeepsTheFixtures() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let archive = try withArchiveLock { try SampleFixture.buildTravel(in: scratch) }
        let fixtureUUID = try withArchiveLock { () throws -> String in
            let folder = try SafeArchiveReader(archiveURL: archive).extract(nextTo: scratch.file("peek"))
            defer { try? FileManager.default.removeItem(at: folder) }
            return try FixtureDatabaseProbe(path: folder.appendingPathComponent("travel.quire/db.sqlite3").path)
                .privateUUID ?? ""
        }
        var seen: Set<String> = [fixtureUUID]
        for name in ["first", "second", "third"] {
            let database = try withArchiveLock {
                try FixtureInstaller.installIfAbsent(archive: archive, name: name, config: config(scratch))
            }
            let privateUUID = try database.privateUUID()
            #expect(seen.insert(privateUUID).inserted)
            #expect(try database.publicUUID() != privateUUID)
            #expect(try database.previousPrivateUUIDs() == [fixtureUUID])
            try database.close()
        }
    }

    @Test func ifAbsentLeavesAnExistingDatabaseUntouched() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let existing = try Database(name: "travel", config: config(scratch))
        try existing.defaultCollection().save(document: MutableDocument(id: "mine", data: ["keep": true]))
        let ownUUID = try existing.privateUUID()
        try existing.close()
        let before = try snapshot(scratch.file("apps"))
        let archive = try withArchiveLock { try SampleFixture.buildTravel(in: scratch) }

        let outcome = try withArchiveLock {
            try FixtureInstaller.install(archive: archive, name: "travel", config: config(scratch), ifAbsent: true)
        }
        #expect(outcome == .alreadyPresent)
        #expect(try snapshot(scratch.file("apps")) == before)
        let error = #expect(throws: QuireError.self) {
            try withArchiveLock {
                try FixtureInstaller.install(archive: archive, name: "travel", config: config(scratch))
            }
        }
        #expect(error?.domain == .posix && error?.underlyingCode == EEXIST)
        #expect(try snapshot(scratch.file("apps")) == before)

        let database = try withArchiveLock {
            try FixtureInstaller.installIfAbsent(archive: archive, name: "travel", config: config(scratch))
        }
        defer { try? database.close() }
        #expect(try database.privateUUID() == ownUUID)
        #expect(try database.previousPrivateUUIDs().isEmpty)
        #expect(try database.defaultCollection().document(id: "mine")?.boolean(forKey: "keep") == true)
        #expect(try database.collection(name: "hotel", scope: "inventory") == nil)
    }

    @Test(arguments: HostileArchiveCorpus.cases.indices)
    func refusesHostileArchivesWritingNothingOutsideItsTemporaryFolder(index: Int) throws {
        let (name, fragment, make) = HostileArchiveCorpus.cases[index]
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let archive = try scratch.folder("in").appendingPathComponent("fixture.quire.zip")
        try withArchiveLock { try make(scratch, archive) }
        let before = contents(of: scratch.url)
        let temporary = try scratch.folder("tmp")
        expectQuireError(.corruptData, containing: [fragment]) {
            try withArchiveLock {
                _ = try FixtureInstaller.install(
                    archive: archive, name: "travel", config: config(scratch), temporaryDirectory: temporary)
            }
        }
        #expect(contents(of: temporary).isEmpty, "\(name)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("apps").path), "\(name)")
        #expect(contents(of: scratch.url) == (before + ["tmp"]).sorted(), "\(name)")
    }
}
