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

    /// Archives an installer must refuse, each made in `scratch` by its closure.
    static let hostileCases: [(name: String, fragment: String, make: @Sendable (ScratchFolder, URL) throws -> Void)] = [
        (
            "zip slip", "escapes the destination",
            { _, url in
                try HostileArchive.write(
                    [.init(name: "../../evil.txt", kind: .file(Data("x".utf8)))], format: .zip, to: url)
            }
        ),
        (
            "absolute path", "is an absolute path",
            { scratch, url in
                try HostileArchive.write(
                    [.init(name: scratch.file("evil.txt").path, kind: .file(Data("x".utf8)))], format: .zip, to: url)
            }
        ),
        (
            "symlink then a file through it", "symbolic link",
            { scratch, url in
                try HostileArchive.write(
                    [
                        .init(name: "travel.quire/link", kind: .symlink(scratch.url.path)),
                        .init(name: "travel.quire/link/evil.txt", kind: .file(Data("x".utf8))),
                    ], format: .tar, to: url)
            }
        ),
        (
            "hard link", "hard link",
            { _, url in
                try HostileArchive.write(
                    [
                        .init(name: "a.txt", kind: .file(Data("x".utf8))),
                        .init(name: "b.txt", kind: .hardlink("a.txt")),
                    ], format: .tar, to: url)
            }
        ),
        (
            "device", "is a device",
            { _, url in
                try HostileArchive.write([.init(name: "null", kind: .characterDevice)], format: .tar, to: url)
            }
        ),
        (
            "FIFO", "is a FIFO",
            { _, url in
                try HostileArchive.write([.init(name: "pipe", kind: .fifo)], format: .tar, to: url)
            }
        ),
        (
            "duplicate names", "appears twice",
            { _, url in
                try HostileArchive.write(
                    [
                        .init(name: "manifest.json", kind: .file(Data("{}".utf8))),
                        .init(name: "manifest.json", kind: .file(Data("{}".utf8))),
                    ],
                    format: .zip, to: url)
            }
        ),
        (
            "decompression bomb", "decompression bomb",
            { _, url in
                try HostileArchive.write(
                    [.init(name: "travel.quire/db.sqlite3", kind: .zeros(24 << 20))], format: .zip, to: url)
            }
        ),
        (
            "decompression bomb in a fixture", "decompression bomb",
            { scratch, url in
                // A manifest, so the bomb is met while extracting, after the headers passed.
                try SampleFixture.repack(try SampleFixture.buildTravel(in: scratch, folder: "good"), to: url) {
                    folder in
                    try Data(count: 24 << 20).write(to: folder.appendingPathComponent("travel.quire/db.sqlite3"))
                }
            }
        ),
        (
            "truncated archive", "archive",
            { scratch, url in
                let good = try Data(contentsOf: try SampleFixture.buildTravel(in: scratch, folder: "good"))
                try good.prefix(good.count / 2).write(to: url)
            }
        ),
        ("not an archive", "not a readable archive", { _, url in try Data("hello".utf8).write(to: url) }),
        (
            "no manifest", "has no manifest.json",
            { _, url in
                try ReproducibleZipWriter().write([.bytes("travel.quire/db.sqlite3", Data("x".utf8))], to: url)
            }
        ),
        (
            "entry outside the database folder", "archive entry 'stray.txt' is outside the allowed paths",
            { scratch, url in
                try SampleFixture.writeStrayEntryFixture(in: scratch, to: url)
            }
        ),
        (
            "manifest listing an outside path", "'stray.txt' is outside the database folder 'travel.quire'",
            { scratch, url in
                try SampleFixture.writeManifestListingAnOutsidePath(in: scratch, to: url)
            }
        ),
        (
            "tampered database", "does not match its manifest",
            { scratch, url in
                try SampleFixture.repack(try SampleFixture.buildTravel(in: scratch, folder: "good"), to: url) {
                    folder in
                    try Data("not the database".utf8).write(
                        to: folder.appendingPathComponent("travel.quire/db.sqlite3"))
                }
            }
        ),
    ]

    @Test(arguments: hostileCases.indices)
    func refusesHostileArchivesWritingNothingOutsideItsTemporaryFolder(index: Int) throws {
        let (name, fragment, make) = Self.hostileCases[index]
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
