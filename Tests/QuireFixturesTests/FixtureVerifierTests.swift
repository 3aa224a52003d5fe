import Foundation
import Quire
import QuireFixturesTestSupport
import Testing

@testable import QuireFixtureBuilder
@testable import QuireFixtures

@Suite struct FixtureVerifierTests {
    private func verify(_ archive: URL) -> FixtureVerificationReport {
        withArchiveLock { FixtureVerifier(archiveURL: archive).verify() }
    }

    /// The failed checks as `subject: problem`.
    private func failures(_ report: FixtureVerificationReport) -> [String] {
        report.failures.map { "\($0.subject): \($0.problem ?? "")" }
    }

    @Test func aFreshBuildPassesEveryCheck() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let archive = try withArchiveLock { try SampleFixture.buildTravel(in: scratch) }
        let report = verify(archive)
        #expect(report.isValid, "\(report.text)")
        let subjects = report.checks.map(\.subject)
        #expect(subjects.contains("travel.quire/db.sqlite3"))
        #expect(subjects.contains("integrity"))
        #expect(subjects.contains("collection inventory.hotel"))
        #expect(subjects.filter { $0.hasPrefix("blob sha1-") }.count == 2)
        #expect(report.text.hasSuffix("travel.quire.zip matches its manifest (\(report.checks.count) checks).\n"))
        #expect(report.text.contains("  ok   collection inventory.hotel: 4 documents\n"))
    }

    @Test func aFlippedByteInTheArchiveIsCaught() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let archive = try withArchiveLock { try SampleFixture.buildTravel(in: scratch) }
        var bytes = try Data(contentsOf: archive)
        // Inside the database's compressed data, past its local header.
        let name = Data("travel.quire/db.sqlite3".utf8)
        let header = try #require(bytes.range(of: name))
        bytes[header.upperBound + 200] ^= 0x01
        try bytes.write(to: archive)
        let report = verify(archive)
        #expect(!report.isValid)
        #expect(
            failures(report).contains { $0.hasPrefix("archive: ") || $0.hasPrefix("travel.quire/db.sqlite3: ") },
            "\(report.text)")
        #expect(report.text.contains("does NOT match its manifest"))
    }

    @Test func aFlippedByteInTheDatabaseIsCaught() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let tampered = scratch.file("tampered.quire.zip")
        try withArchiveLock {
            try SampleFixture.repack(try SampleFixture.buildTravel(in: scratch), to: tampered) { folder in
                let file = try FileHandle(forUpdating: folder.appendingPathComponent("travel.quire/db.sqlite3"))
                try file.seek(toOffset: 5_000)
                let byte = try #require(try file.read(upToCount: 1))
                try file.seek(toOffset: 5_000)
                try file.write(contentsOf: Data([byte[0] ^ 0x01]))
                try file.close()
            }
        }
        let report = verify(tampered)
        #expect(!report.isValid)
        #expect(
            failures(report).contains {
                $0.hasPrefix("travel.quire/db.sqlite3: has SHA-256 ") && $0.contains("the manifest says")
            })
    }

    @Test func aMissingEntryIsCaught() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let archive = try withArchiveLock { try SampleFixture.buildTravel(in: scratch) }
        var removedBlob = ""
        let withoutBlob = scratch.file("no-blob.quire.zip")
        let withoutDatabase = scratch.file("no-db.quire.zip")
        try withArchiveLock {
            try SampleFixture.repack(archive, to: withoutBlob) { folder in
                let attachments = folder.appendingPathComponent("travel.quire/Attachments")
                let first = try #require(
                    try FileManager.default.contentsOfDirectory(atPath: attachments.path).sorted().first)
                removedBlob = try #require(DatasetBlobName.digest(forFileName: first))
                try FileManager.default.removeItem(at: attachments.appendingPathComponent(first))
            }
            try SampleFixture.repack(archive, to: withoutDatabase) { folder in
                try FileManager.default.removeItem(at: folder.appendingPathComponent("travel.quire/db.sqlite3"))
            }
        }
        #expect(failures(verify(withoutBlob)) == ["blob \(removedBlob): is missing from the archive"])
        #expect(failures(verify(withoutDatabase)) == ["travel.quire/db.sqlite3: is missing from the archive"])
    }

    @Test func aCountMismatchIsCaught() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let edited = scratch.file("edited.quire.zip")
        try withArchiveLock {
            try SampleFixture.repack(try SampleFixture.buildTravel(in: scratch), to: edited) { folder in
                try SampleFixture.editManifest(in: folder) { manifest in
                    if let index = manifest.collections.firstIndex(where: { $0.name == "inventory.hotel" }) {
                        manifest.collections[index].documentCount += 1
                    }
                    manifest.collections.removeAll { $0.name == "inventory.route" }
                    manifest.collections.append(.init(name: "inventory.ghost", documentCount: 0))
                }
            }
        }
        #expect(
            failures(verify(edited)) == [
                "collection inventory.hotel: has 4 documents; the manifest says 5",
                "collection inventory.route: is in the database but not in the manifest",
                "collection inventory.ghost: is in the manifest but not in the database",
            ])
    }

    @Test func extraEntriesAndIndexMismatchesAreCaught() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let recipe = try SampleFixture.travelRecipe(
            in: scratch,
            collectionsYAML: "collections:\n  - {name: inventory.hotel, indexes: [{name: by_city, value: [city]}]}\n")
        let edited = scratch.file("edited.quire.zip")
        try withArchiveLock {
            let built = try FixtureBuilder(recipe: recipe).build(into: scratch.file("out"))
            try SampleFixture.repack(built.archiveURL, to: edited) { folder in
                try Data("note".utf8).write(to: folder.appendingPathComponent("travel.quire/notes.txt"))
                try SampleFixture.editManifest(in: folder) { manifest in
                    manifest.indexes = [
                        .init(collection: "inventory.hotel", name: "by_name", kind: .value, expressions: ["name"])
                    ]
                }
            }
        }
        #expect(
            failures(verify(edited)) == [
                "travel.quire/notes.txt: is in the archive but not in the manifest",
                "index inventory.hotel/by_city: is in the database but not in the manifest",
                "index inventory.hotel/by_name: is in the manifest but not in the database",
            ])
    }

    @Test func indexDefinitionsThatDisagreeWithTheManifestAreCaughtByField() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let recipe = try SampleFixture.travelRecipe(
            in: scratch,
            collectionsYAML: """
                collections:
                  - name: inventory.hotel
                    indexes:
                      - {name: by_city, value: [city]}
                      - {name: by_name, value: [name]}
                      - {name: reviews, fullText: [description], ignoreAccents: true, language: en}

                """)
        let edited = scratch.file("edited.quire.zip")
        try withArchiveLock {
            let built = try FixtureBuilder(recipe: recipe).build(into: scratch.file("out"))
            #expect(FixtureVerifier(archiveURL: built.archiveURL).verify().isValid)
            try SampleFixture.repack(built.archiveURL, to: edited) { folder in
                try SampleFixture.editManifest(in: folder) { manifest in
                    for position in manifest.indexes.indices {
                        switch manifest.indexes[position].name {
                        case "by_city":
                            manifest.indexes[position].expressions = ["country"]
                        case "by_name":
                            manifest.indexes[position].kind = .fullText
                        default:
                            manifest.indexes[position].ignoreAccents = false
                            manifest.indexes[position].language = "fr"
                        }
                    }
                }
            }
        }
        #expect(
            failures(verify(edited)) == [
                "index inventory.hotel/by_city: expressions are ['city']; the manifest says ['country']",
                "index inventory.hotel/by_name: kind is value; the manifest says fullText",
                "index inventory.hotel/reviews: ignoreAccents is true; the manifest says false; language is 'en'; the manifest says 'fr'",
            ])
    }

    @Test func unreadableArchivesFailWithOneCheck() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let text = try scratch.write("not a zip", to: "text.quire.zip")
        #expect(failures(verify(text)).first?.hasPrefix("archive: ") == true)
        #expect(failures(verify(scratch.file("absent.zip"))).first?.hasPrefix("archive: ") == true)
        let bare = scratch.file("bare.zip")
        try withArchiveLock { try ReproducibleZipWriter().write([.bytes("x.txt", Data("x".utf8))], to: bare) }
        #expect(failures(verify(bare)) == ["archive: archive 'bare.zip' has no manifest.json"])
        let evil = scratch.file("evil.zip")
        try withArchiveLock {
            try HostileArchive.write([.init(name: "../evil", kind: .file(Data("x".utf8)))], format: .zip, to: evil)
        }
        #expect(failures(verify(evil)).first?.contains("escapes the destination") == true)
    }
}
