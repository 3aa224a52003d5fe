import Foundation
import QuireFixtureBuilder
import QuireFixtures

/// Hostile fixture archives, each kind once, for the tests of the installer and of the
/// `quire fixture verify` and `install` commands: `make` writes one into the scratch folder
/// at the URL it is given (the caller holds ``withArchiveLock``), and `fragment` is what the
/// refusal must say.
package enum HostileArchiveCorpus {
    package static let cases: [(name: String, fragment: String, make: @Sendable (ScratchFolder, URL) throws -> Void)] =
        [
            (
                "'..' in a path", "escapes the destination ('..' component)",
                { _, url in
                    try HostileArchive.write(
                        [
                            .init(name: "travel.quire/ok.txt", kind: .file(Data("x".utf8))),
                            .init(name: "travel.quire/../../evil.txt", kind: .file(Data("x".utf8))),
                        ],
                        format: .zip, to: url)
                }
            ),
            (
                "absolute path", "is an absolute path",
                { scratch, url in
                    try HostileArchive.write(
                        [.init(name: scratch.file("evil.txt").path, kind: .file(Data("x".utf8)))], format: .tar, to: url
                    )
                }
            ),
            (
                "symlink and a file written through it", "is a symbolic link",
                { scratch, url in
                    try HostileArchive.write(
                        [
                            .init(name: "travel.quire/link", kind: .symlink(scratch.url.path)),
                            .init(name: "travel.quire/link/evil.txt", kind: .file(Data("x".utf8))),
                        ], format: .zip, to: url)
                }
            ),
            (
                "hard link", "is a hard link (to 'a.txt')",
                { _, url in
                    try HostileArchive.write(
                        [
                            .init(name: "a.txt", kind: .file(Data("x".utf8))),
                            .init(name: "b.txt", kind: .hardlink("a.txt")),
                        ], format: .tar, to: url)
                }
            ),
            (
                "character device", "is a device",
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
                "duplicate names", "duplicates 'travel.quire/db.sqlite3'",
                { _, url in
                    try HostileArchive.write(
                        [
                            .init(name: "travel.quire/db.sqlite3", kind: .file(Data("1".utf8))),
                            .init(name: "travel.quire/./db.sqlite3", kind: .file(Data("2".utf8))),
                        ], format: .zip, to: url)
                }
            ),
            (
                "4 MB that expands past 4 GiB", "over the ratio limit of 200 (a decompression bomb?)",
                { _, url in
                    try ZipBomb.archive().write(to: url)
                }
            ),
            (
                "truncated archive", "is not a readable archive",
                { scratch, url in
                    let good = try Data(contentsOf: try SampleFixture.buildTravel(in: scratch, folder: "good"))
                    try good.prefix(good.count / 2).write(to: url)
                }
            ),
            (
                "corrupt central directory", "fixture.quire.zip",
                { scratch, url in
                    var bytes = [UInt8](
                        try Data(contentsOf: try SampleFixture.buildTravel(in: scratch, folder: "good")))
                    let directory = Int(ZipInspector.le32(bytes, bytes.count - 22 + 16))
                    for offset in directory + 46..<min(directory + 120, bytes.count - 22) { bytes[offset] = 0xFF }
                    try Data(bytes).write(to: url)
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
                "not an archive", "is not a readable archive",
                { _, url in
                    try Data("This is a plain text file, not an archive.\n".utf8).write(to: url)
                }
            ),
            (
                "zip slip", "escapes the destination",
                { _, url in
                    try HostileArchive.write(
                        [.init(name: "../../evil.txt", kind: .file(Data("x".utf8)))], format: .zip, to: url)
                }
            ),
            (
                "absolute path in a zip", "is an absolute path",
                { scratch, url in
                    try HostileArchive.write(
                        [.init(name: scratch.file("evil.txt").path, kind: .file(Data("x".utf8)))], format: .zip, to: url
                    )
                }
            ),
            (
                "symlink then a file through it, in a tar", "symbolic link",
                { scratch, url in
                    try HostileArchive.write(
                        [
                            .init(name: "travel.quire/link", kind: .symlink(scratch.url.path)),
                            .init(name: "travel.quire/link/evil.txt", kind: .file(Data("x".utf8))),
                        ], format: .tar, to: url)
                }
            ),
            (
                "the same name twice", "appears twice",
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
                "no manifest", "has no manifest.json",
                { _, url in
                    try ReproducibleZipWriter().write([.bytes("travel.quire/db.sqlite3", Data("x".utf8))], to: url)
                }
            ),
            (
                "tampered database", "match its manifest",
                { scratch, url in
                    try SampleFixture.repack(try SampleFixture.buildTravel(in: scratch, folder: "good"), to: url) {
                        folder in
                        try Data("not the database".utf8).write(
                            to: folder.appendingPathComponent("travel.quire/db.sqlite3"))
                    }
                }
            ),
        ]
}
