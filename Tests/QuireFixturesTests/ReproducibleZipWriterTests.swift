import Foundation
import Quire
import QuireFixturesTestSupport
import Testing

@testable import QuireFixtureBuilder
@testable import QuireFixtures

@Suite struct ReproducibleZipWriterTests {
    /// Writes the same logical content from two differently prepared source folders.
    private func buildSources(in scratch: ScratchFolder, variant: Int) throws -> [ReproducibleZipWriter.Entry] {
        let source = try scratch.folder("source-\(variant)")
        let names =
            variant == 0
            ? ["db/data.sqlite", "db/blobs/b1", "notes.txt"] : ["notes.txt", "db/blobs/b1", "db/data.sqlite"]
        for name in names {
            let url = source.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("content of \(name)\n".utf8).write(to: url)
            // Different modes and times in each variant must not reach the archive.
            try FileManager.default.setAttributes(
                [
                    .posixPermissions: variant == 0 ? 0o600 : 0o755,
                    .modificationDate: Date(timeIntervalSince1970: variant == 0 ? 1_000_000 : 1_600_000_000),
                ],
                ofItemAtPath: url.path)
        }
        let entries = try ReproducibleZipWriter.entries(forContentsOf: source)
        return variant == 0 ? entries : entries.reversed()
    }

    @Test func twoBuildsOfTheSameInputsAreByteIdentical() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        try withArchiveLock {
            let writer = ReproducibleZipWriter(timestamp: FixtureTimestamp(secondsSinceEpoch: 1_700_000_000))
            let oldMask = umask(0o077)
            try writer.write(try buildSources(in: scratch, variant: 0), to: scratch.file("a.zip"))
            umask(0o002)
            try writer.write(try buildSources(in: scratch, variant: 1), to: scratch.file("b.zip"))
            umask(oldMask)
        }
        let first = try Data(contentsOf: scratch.file("a.zip"))
        let second = try Data(contentsOf: scratch.file("b.zip"))
        #expect(first == second)
        #expect(!first.isEmpty)
    }

    @Test func outputDoesNotDependOnTheTimeZone() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let entries = try buildSources(in: scratch, variant: 0)
        let writer = ReproducibleZipWriter(timestamp: FixtureTimestamp(secondsSinceEpoch: 1_700_000_000))
        var outputs: [Data] = []
        for zone in ["UTC", "Asia/Tokyo", "America/Los_Angeles", "Pacific/Kiritimati"] {
            let url = scratch.file("\(zone.replacingOccurrences(of: "/", with: "_")).zip")
            try await onOwnThread {
                try withTimeZone(zone) { try writer.write(entries, to: url) }
            }
            outputs.append(try Data(contentsOf: url))
        }
        #expect(Set(outputs).count == 1)
    }

    @Test func entriesAreSortedWithParentsFixedModesAndNoTimesInExtraFields() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let url = scratch.file("sorted.zip")
        try withArchiveLock {
            try ReproducibleZipWriter().write(
                [
                    .bytes("z.txt", Data("z".utf8)), .bytes("a/c/d.txt", Data()), .bytes("a-b", Data("ab".utf8)),
                    .bytes("café/crème.txt", Data("brûlée".utf8)), .directory("empty/"),
                ],
                to: url)
        }
        let zip = try ZipInspector(url)
        #expect(
            zip.records.map(\.name) == ["a-b", "a/", "a/c/", "a/c/d.txt", "café/", "café/crème.txt", "empty/", "z.txt"])
        for record in zip.records {
            let mode = record.externalAttributes >> 16
            #expect(mode == (record.name.hasSuffix("/") ? 0o040755 : 0o100644), "\(record.name)")
            // "UT" with no time flags, then "ux" with uid 0 and gid 0.
            #expect(record.extra == [0x55, 0x54, 1, 0, 0, 0x75, 0x78, 11, 0, 1, 4, 0, 0, 0, 0, 4, 0, 0, 0, 0])
        }
        #expect(zip.records.filter { !$0.name.allSatisfy(\.isASCII) }.allSatisfy { $0.flags & 0x800 != 0 })
    }

    @Test func theFixedTimeReadsBackAsTheUTCWallClock() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let url = scratch.file("time.zip")
        let stamp = try FixtureTimestamp.fromEnvironment(["SOURCE_DATE_EPOCH": "1700000001"])
        try await onOwnThread {
            try withTimeZone("Asia/Tokyo") {
                try ReproducibleZipWriter(timestamp: stamp).write(
                    [.bytes("f", Data("x".utf8)), .directory("d")], to: url)
            }
        }
        // 1700000001 is 2023-11-14T22:13:21Z; DOS time keeps even seconds.
        let expected = UTCWallClock(year: 2023, month: 11, day: 14, hour: 22, minute: 13, second: 20)
        let zip = try ZipInspector(url)
        #expect(zip.records.count == 2)
        for record in zip.records {
            #expect(DOSDateTime(packed: record.dosTime).wallClock == expected)
            #expect(DOSDateTime(packed: record.localDosTime).wallClock == expected)
        }
    }

    @Test func theDefaultTimeIsTheYear2000() throws {
        #expect(try FixtureTimestamp.fromEnvironment([:]) == .fallback)
        #expect(FixtureTimestamp.fallback.iso8601 == "2000-01-01T00:00:00Z")
        #expect(FixtureTimestamp(iso8601: "2023-11-14T22:13:20Z")?.secondsSinceEpoch == 1_700_000_000)
        #expect(FixtureTimestamp(iso8601: "2023-02-30T00:00:00Z") == nil)
        expectQuireError(.invalidParameter, containing: ["SOURCE_DATE_EPOCH", "'17e8'"]) {
            _ = try FixtureTimestamp.fromEnvironment(["SOURCE_DATE_EPOCH": "17e8"])
        }
    }

    @Test func dosTimesClampToTheirRange() {
        #expect(DOSDateTime(secondsSinceEpoch: 0).wallClock == DOSDateTime.earliest)
        #expect(DOSDateTime(secondsSinceEpoch: 9_999_999_999).wallClock == DOSDateTime.latest)
    }

    @Test(arguments: [
        ("../evil", "'..' component"), ("/etc/passwd", "absolute path"), ("a\\b", "separator"), ("", "empty name"),
        ("./", "names no file"),
    ])
    func badPathsAreRefused(path: String, rule: String) throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        expectQuireError(.invalidParameter, containing: [rule]) {
            try withArchiveLock { try ReproducibleZipWriter().write([.bytes(path, Data())], to: scratch.file("x.zip")) }
        }
        #expect(contents(of: scratch.url).isEmpty)
    }

    @Test func duplicatesAndFileFolderClashesAreRefused() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        expectQuireError(.invalidParameter, containing: ["'a/./b'", "twice"]) {
            try ReproducibleZipWriter().write(
                [.bytes("a/b", Data()), .bytes("a/./b", Data())], to: scratch.file("x.zip"))
        }
        expectQuireError(.invalidParameter, containing: ["'a' is a file", "'a/b'"]) {
            try ReproducibleZipWriter().write([.bytes("a", Data()), .bytes("a/b", Data())], to: scratch.file("x.zip"))
        }
        #expect(contents(of: scratch.url).isEmpty)
    }

    @Test func aFailedWriteLeavesNothingBehind() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let missing = scratch.file("missing.bin")
        expectQuireError(.notFound, containing: ["missing.bin"]) {
            try withArchiveLock {
                try ReproducibleZipWriter().write(
                    [.bytes("a", Data("a".utf8)), .file("b", from: missing)], to: scratch.file("out.zip"))
            }
        }
        #expect(contents(of: scratch.url).isEmpty)
    }

    @Test func largeFilesStreamAndReadBackIntact() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        var generator = SeededGenerator(seed: 7)
        var bytes = [UInt8](repeating: 0, count: 3 << 20)
        for index in bytes.indices where index % 3 == 0 { bytes[index] = UInt8(truncatingIfNeeded: generator.next()) }
        let source = scratch.file("big.bin")
        try Data(bytes).write(to: source)
        let archive = scratch.file("big.zip")
        let listing = try withArchiveLock {
            try ReproducibleZipWriter().write(
                [.file("big.bin", from: source), .bytes("small", Data("s".utf8))], to: archive)
            return try SafeArchiveReader(archiveURL: archive).listing()
        }
        #expect(
            listing == [
                ArchiveEntry(
                    path: "big.bin", kind: .file, size: Int64(bytes.count),
                    sha256: DigestText.hex(SHA256.hash(data: bytes))
                ),
                ArchiveEntry(
                    path: "small", kind: .file, size: 1, sha256: DigestText.hex(SHA256.hash(data: Data("s".utf8)))),
            ])
    }
}
