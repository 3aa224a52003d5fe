import Foundation
import Quire
import QuireFixturesTestSupport
import QuireTestSupport
import Testing

@testable import QuireFixtureBuilder
@testable import QuireFixtures

@Suite(.offCooperativePool) struct SafeArchiveReaderTests {
    /// A scratch folder with `in/` for the archive and `out/` as the destination's parent.
    private struct Setup {
        let scratch: ScratchFolder
        let archive: URL
        let destination: URL

        init(name: String = "fixture.zip") throws {
            scratch = try ScratchFolder()
            archive = try scratch.folder("in").appendingPathComponent(name)
            destination = try scratch.folder("out").appendingPathComponent("db")
        }

        /// Asserts extraction fails with the fragments and leaves `out/` empty.
        func expectRefused(
            limits: ArchiveLimits = .default, requiredRoot: String? = nil, _ fragments: String...,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let reader = SafeArchiveReader(archiveURL: archive, limits: limits, requiredRoot: requiredRoot)
            expectQuireError(.corruptData, containing: fragments, sourceLocation: sourceLocation) {
                _ = try withArchiveLock { try reader.extract(nextTo: destination) }
            }
            #expect(contents(of: destination.deletingLastPathComponent()).isEmpty, sourceLocation: sourceLocation)
        }
    }

    private func hostile(_ setup: Setup, _ format: HostileArchive.Format, _ entries: [HostileArchive.Entry]) throws {
        try withArchiveLock { try HostileArchive.write(entries, format: format, to: setup.archive) }
    }

    @Test func extractsAGoodArchiveIntoATemporaryFolderNextToTheDestination() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        let folder = try withArchiveLock { () throws -> URL in
            try ReproducibleZipWriter().write(
                [
                    .bytes("db.cblite2/db.sqlite3", Data("sqlite".utf8)),
                    .bytes("db.cblite2/Attachments/x.blob", Data("b".utf8)),
                ],
                to: setup.archive)
            return try SafeArchiveReader(archiveURL: setup.archive, requiredRoot: "db.cblite2").extract(
                nextTo: setup.destination)
        }
        #expect(
            folder.deletingLastPathComponent().standardizedFileURL
                == setup.destination.deletingLastPathComponent().standardizedFileURL)
        #expect(folder.lastPathComponent.hasPrefix(".db.extract-"))
        #expect(
            contents(of: folder) == [
                "db.cblite2", "db.cblite2/Attachments", "db.cblite2/Attachments/x.blob", "db.cblite2/db.sqlite3",
            ])
        #expect(try Data(contentsOf: folder.appendingPathComponent("db.cblite2/db.sqlite3")) == Data("sqlite".utf8))
        let mode =
            try FileManager.default.attributesOfItem(
                atPath: folder.appendingPathComponent("db.cblite2/db.sqlite3").path)[.posixPermissions] as? Int
        #expect(mode == 0o644)
    }

    @Test func listingHashesEveryFile() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        let listing = try withArchiveLock { () throws -> [ArchiveEntry] in
            try ReproducibleZipWriter().write([.bytes("a/b.txt", Data("abc".utf8))], to: setup.archive)
            return try SafeArchiveReader(archiveURL: setup.archive).listing()
        }
        #expect(
            listing == [
                ArchiveEntry(path: "a", kind: .directory),
                ArchiveEntry(
                    path: "a/b.txt", kind: .file, size: 3,
                    sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ])
        #expect(contents(of: setup.destination.deletingLastPathComponent()).isEmpty)
    }

    @Test func validateReadingOneEntryChecksEveryHeaderAndReadsOnlyThatEntry() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        // The second entry's data is a bomb; only its header is read, so it passes here and is
        // refused when extracted.
        try hostile(
            setup, .zip,
            [
                .init(name: "manifest.json", kind: .file(Data("{}".utf8))),
                .init(name: "db/zeros", kind: .zeros(50 << 20)),
            ])
        let reader = SafeArchiveReader(archiveURL: setup.archive)
        #expect(try withArchiveLock { try reader.validate(readingEntry: "manifest.json") } == Data("{}".utf8))
        #expect(try withArchiveLock { try reader.validate(readingEntry: "absent.json") } == nil)
        setup.expectRefused("archive entry 'db/zeros' expands", "ratio limit of 200")

        try hostile(
            setup, .zip,
            [
                .init(name: "manifest.json", kind: .file(Data("{}".utf8))),
                .init(name: "../evil", kind: .file(Data("x".utf8))),
            ])
        expectQuireError(.corruptData, containing: ["escapes the destination"]) {
            _ = try withArchiveLock { try reader.validate(readingEntry: "manifest.json") }
        }
    }

    @Test func extractHashingDigestsWhatItWrites() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        let (listing, files, folder) = try withArchiveLock {
            () throws -> ([ArchiveEntry], [String: ArchiveEntry], URL) in
            try ReproducibleZipWriter().write(
                [
                    .bytes("a/b.txt", Data("abc".utf8)),
                    .bytes("a/c.bin", Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })),
                    // Large enough to be written and hashed on a second thread.
                    .bytes(
                        "a/d.bin", PipelinedFileSinkTests.noise(count: Int(PipelinedFileSink.worthwhileSize) + 12_345)),
                ],
                to: setup.archive)
            let reader = SafeArchiveReader(archiveURL: setup.archive)
            let (scratch, files) = try reader.extractHashing(
                in: setup.destination.deletingLastPathComponent(), prefix: ".db.extract-")
            scratch.close()
            return (try reader.listing(), files, scratch.url)
        }
        #expect(files.count == 3)
        for entry in listing where entry.kind == .file {
            #expect(files[entry.path] == entry)
            let written = try Data(contentsOf: folder.appendingPathComponent(entry.path))
            #expect(DigestText.hex(SHA256.hash(data: written)) == entry.sha256)
        }
    }

    @Test(arguments: [HostileArchive.Format.zip, .tar])
    func refusesDotDotTraversal(format: HostileArchive.Format) throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try hostile(
            setup, format,
            [.init(name: "ok.txt", kind: .file(Data("x".utf8))), .init(name: "../evil", kind: .file(Data("x".utf8)))])
        setup.expectRefused("archive entry '../evil' escapes the destination ('..' component)")
        #expect(!FileManager.default.fileExists(atPath: setup.scratch.url.appendingPathComponent("in/../evil").path))
        try hostile(setup, format, [.init(name: "a/../../evil", kind: .file(Data("x".utf8)))])
        setup.expectRefused("'a/../../evil'", "'..' component")
    }

    @Test(arguments: [HostileArchive.Format.zip, .tar])
    func refusesAbsolutePaths(format: HostileArchive.Format) throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try hostile(setup, format, [.init(name: "/tmp/quire-evil", kind: .file(Data("x".utf8)))])
        setup.expectRefused("archive entry '/tmp/quire-evil' is an absolute path")
    }

    @Test(arguments: [HostileArchive.Format.zip, .tar])
    func refusesASymlinkAndAFileWrittenThroughIt(format: HostileArchive.Format) throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        let outside = try setup.scratch.folder("outside")
        try hostile(
            setup, format,
            [
                .init(name: "link", kind: .symlink(outside.path)),
                .init(name: "link/planted.txt", kind: .file(Data("gotcha".utf8))),
            ])
        setup.expectRefused("archive entry 'link' is a symbolic link", outside.path)
        #expect(contents(of: outside).isEmpty)
    }

    @Test func refusesHardLinksDevicesAndFIFOs() throws {
        let setup = try Setup(name: "fixture.tar")
        defer { setup.scratch.cleanUp() }
        try hostile(
            setup, .tar, [.init(name: "a", kind: .file(Data("x".utf8))), .init(name: "b", kind: .hardlink("a"))])
        setup.expectRefused("archive entry 'b' is a hard link (to 'a')")
        try hostile(setup, .tar, [.init(name: "null", kind: .characterDevice)])
        setup.expectRefused("archive entry 'null' is a device")
        try hostile(setup, .tar, [.init(name: "pipe", kind: .fifo)])
        setup.expectRefused("archive entry 'pipe' is a FIFO")
    }

    @Test(arguments: [HostileArchive.Format.zip, .tar])
    func refusesDuplicateNames(format: HostileArchive.Format) throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try hostile(
            setup, format,
            [.init(name: "a/b", kind: .file(Data("1".utf8))), .init(name: "a/b", kind: .file(Data("2".utf8)))])
        setup.expectRefused("archive entry 'a/b' appears twice")
        try hostile(
            setup, format,
            [.init(name: "a/b", kind: .file(Data("1".utf8))), .init(name: "a/./b", kind: .file(Data("2".utf8)))])
        setup.expectRefused("archive entry 'a/./b' duplicates 'a/b'")
        try hostile(
            setup, format, [.init(name: "Read.me", kind: .file(Data())), .init(name: "READ.ME", kind: .file(Data()))])
        setup.expectRefused("'READ.ME' differs from 'Read.me' only in letter case")
        try hostile(setup, format, [.init(name: "a", kind: .file(Data())), .init(name: "a/b", kind: .file(Data()))])
        setup.expectRefused("archive entry 'a/b' is inside 'a', which is a file")
    }

    @Test func refusesEntriesOutsideTheRequiredRoot() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try hostile(
            setup, .zip,
            [.init(name: "db.cblite2/db.sqlite3", kind: .file(Data())), .init(name: "other.txt", kind: .file(Data()))])
        setup.expectRefused(
            requiredRoot: "db.cblite2", "archive entry 'other.txt' is outside the required folder 'db.cblite2'")
    }

    @Test func refusesTooManyEntries() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try hostile(setup, .zip, (0..<5).map { .init(name: "f\($0)", kind: .file(Data())) })
        setup.expectRefused(limits: ArchiveLimits(maximumEntryCount: 4), "more than 4 entries", "'f4'")
    }

    @Test func refusesADecompressionBombByDeclaredSize() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try hostile(setup, .zip, [.init(name: "zeros", kind: .zeros(50 << 20))])
        let size = try FileManager.default.attributesOfItem(atPath: setup.archive.path)[.size] as? Int ?? 0
        #expect(size < 200_000)
        setup.expectRefused(
            limits: ArchiveLimits(maximumTotalSize: 10 << 20), "archive entry 'zeros'", "over the limit of 10485760")
        setup.expectRefused(
            limits: ArchiveLimits(maximumEntrySize: 10 << 20), "archive entry 'zeros' declares 52428800 bytes")
    }

    @Test func refusesADecompressionBombByRatio() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try hostile(setup, .zip, [.init(name: "zeros", kind: .zeros(50 << 20))])
        setup.expectRefused("archive entry 'zeros' expands", "ratio limit of 200")
    }

    @Test func refusesASmallZipThatExpandsToGigabytes() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try ZipBomb.archive().write(to: setup.archive)
        let size = try FileManager.default.attributesOfItem(atPath: setup.archive.path)[.size] as? Int ?? 0
        #expect(size < 4_300_000)
        #expect(ZipBomb.expandedSize > 4 << 30)
        let declared = try withArchiveLock { try SafeArchiveReader(archiveURL: setup.archive).validate() }
        #expect(declared == [ArchiveEntry(path: "zeros", kind: .file, size: ZipBomb.expandedSize)])

        // Within the default size limits: the ratio meter stops it after a few megabytes.
        let clock = ContinuousClock()
        let start = clock.now
        setup.expectRefused("archive entry 'zeros' expands", "over the ratio limit of 200 (a decompression bomb?)")
        #expect(clock.now - start < .seconds(20))
        expectQuireError(.corruptData, containing: ["ratio limit"]) {
            _ = try withArchiveLock { try SafeArchiveReader(archiveURL: setup.archive).listing() }
        }
        // With a per-entry limit below what it declares, it is refused before any data is read.
        setup.expectRefused(
            limits: ArchiveLimits(maximumEntrySize: 1 << 30, maximumCompressionRatio: .infinity),
            "archive entry 'zeros' declares 4294968313 bytes, over the per-entry limit of 1073741824")
        // When its headers say 1000 bytes, reading stops at byte 1001 even with no ratio limit.
        try ZipBomb.archive(declaredSize: 1000).write(to: setup.archive)
        setup.expectRefused(
            limits: ArchiveLimits(maximumCompressionRatio: .infinity),
            "archive entry 'zeros' holds more data than its declared 1000 bytes")
    }

    @Test func theZipBombIsAValidArchive() throws {
        // Its CRC is computed, not read from gigabytes of zeros; check the method on small sizes.
        #expect(ZipBomb.crc32OfZeros(count: 0) == 0)
        #expect(ZipBomb.crc32OfZeros(count: 1) == 0xD202_EF8D)
        #expect(ZipBomb.crc32OfZeros(count: 1000) == 0x060B_1780)
        // The stream is deflate that libarchive inflates: the first megabytes come out as zeros.
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try ZipBomb.archive().write(to: setup.archive)
        let produced = try withArchiveLock { () throws -> Int in
            let reader = try LibArchiveReader(path: setup.archive.path)
            _ = try #require(try reader.nextEntry())
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
            defer { buffer.deallocate() }
            var total = 0
            while total < 8 << 20 {
                let count = try reader.readData(into: buffer, entry: "zeros")
                #expect(count > 0)
                if count <= 0 { break }
                #expect(buffer[0..<count].allSatisfy { $0 == 0 })
                total += count
            }
            return total
        }
        #expect(produced >= 8 << 20)
    }

    @Test func countsBytesWhenTheDeclaredSizeLies() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try hostile(setup, .zip, [.init(name: "zeros", kind: .zeros(4 << 20))])
        // Make both headers declare 1000 uncompressed bytes (libarchive reports the local one).
        var bytes = [UInt8](try Data(contentsOf: setup.archive))
        let zip = try ZipInspector(setup.archive)
        #expect(zip.records.count == 1)
        let directory = Int(ZipInspector.le32(bytes, bytes.count - 22 + 16))
        bytes.replaceSubrange(directory + 24..<directory + 28, with: [0xe8, 0x03, 0, 0])
        bytes.replaceSubrange(22..<26, with: [0xe8, 0x03, 0, 0])
        try Data(bytes).write(to: setup.archive)
        let declared = try withArchiveLock { try SafeArchiveReader(archiveURL: setup.archive).validate() }
        #expect(declared.first?.size == 1000)
        setup.expectRefused(
            limits: ArchiveLimits(maximumCompressionRatio: 2000),
            "archive entry 'zeros' holds more data than its declared 1000 bytes")
    }

    @Test func refusesATruncatedArchive() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try withArchiveLock {
            try ReproducibleZipWriter().write(
                (0..<20).map { .bytes("f\($0)", Data(repeating: UInt8($0), count: 5000)) }, to: setup.archive)
        }
        let bytes = try Data(contentsOf: setup.archive)
        try bytes.prefix(bytes.count / 2).write(to: setup.archive)
        setup.expectRefused("fixture.zip", "is not a readable archive")
    }

    @Test func refusesACorruptCentralDirectory() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try withArchiveLock {
            try ReproducibleZipWriter().write(
                (0..<5).map { .bytes("f\($0)", Data(repeating: 65, count: 100)) }, to: setup.archive)
        }
        var bytes = [UInt8](try Data(contentsOf: setup.archive))
        let directory = Int(ZipInspector.le32(bytes, bytes.count - 22 + 16))
        for offset in directory + 46..<directory + 120 { bytes[offset] = 0xff }
        try Data(bytes).write(to: setup.archive)
        setup.expectRefused("fixture.zip")
    }

    @Test func refusesAFileThatIsNotAnArchive() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        try Data("This is a plain text file, not an archive.\n".utf8).write(to: setup.archive)
        setup.expectRefused("fixture.zip' is not a readable archive")
        try Data().write(to: setup.archive)
        setup.expectRefused("fixture.zip' is not a readable archive")
    }

    @Test func reportsAMissingArchive() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        expectQuireError(.notFound, containing: ["fixture.zip"]) {
            _ = try SafeArchiveReader(archiveURL: setup.archive).validate()
        }
    }
}
