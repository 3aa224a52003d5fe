import Foundation
import FuzzDriver
import Quire
import QuireFixtures

/// Fuzzes `SafeArchiveReader` (and libarchive under it) with arbitrary archive bytes.
///
/// Each input is written to a file in a private folder and read the three ways a fixture is:
/// `validate()`, `listing()`, `extract(nextTo:)`. Failures must be `QuireError`s. After an
/// extraction, the temporary folder must hold only folders and regular files that the listing
/// named; after a refusal, nothing may be left next to the destination; and the sentinel
/// folder beside the work folder must stay empty whatever the archive says.
@main
enum ArchiveReaderFuzzer {
    /// `root/in/archive`, `root/out/` (the destination's parent), `root/sentinel/`.
    static let root: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("quire-fuzz-archive-\(getpid())", isDirectory: true)
        for folder in ["in", "out", "sentinel"] {
            try? FileManager.default.createDirectory(
                at: url.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        return url
    }()
    static let archive = root.appendingPathComponent("in/archive")
    static let out = root.appendingPathComponent("out", isDirectory: true)
    static let sentinel = root.appendingPathComponent("sentinel", isDirectory: true)
    /// Small limits keep each run fast; the rules are the same as with the defaults.
    static let limits = ArchiveLimits(
        maximumEntryCount: 256, maximumTotalSize: 16 << 20, maximumEntrySize: 8 << 20,
        maximumCompressionRatio: 200, compressionRatioThreshold: 64 << 10)

    static func main() {
        FuzzDriver.run { data, size in
            ArchiveReaderFuzzer.test(FuzzDriver.buffer(data, size))
            return 0
        }
    }

    static func test(_ input: UnsafeRawBufferPointer) {
        guard FileManager.default.createFile(atPath: archive.path, contents: Data(input)) else {
            FuzzDriver.fail("cannot write the input to \(archive.path)")
        }
        let reader = SafeArchiveReader(archiveURL: archive, limits: limits)
        let validated = expectQuireError { try reader.validate() }
        let listed = expectQuireError { try reader.listing() }
        if let listed, let validated, listed.map(\.path) != validated.map(\.path) {
            FuzzDriver.fail("listing and validation disagree: \(listed.map(\.path)) vs \(validated.map(\.path))")
        }
        let destination = out.appendingPathComponent("db")
        if let folder = expectQuireError({ try reader.extract(nextTo: destination) }) {
            guard let listed else { FuzzDriver.fail("extracted an archive whose listing failed") }
            checkExtracted(folder, against: listed)
            try? FileManager.default.removeItem(at: folder)
        }
        if let left = try? FileManager.default.contentsOfDirectory(atPath: out.path), !left.isEmpty {
            FuzzDriver.fail("left behind next to the destination: \(left)")
        }
        if let planted = try? FileManager.default.contentsOfDirectory(atPath: sentinel.path), !planted.isEmpty {
            FuzzDriver.fail("written outside the work folder: \(planted)")
        }
    }

    /// Runs `body`; a `QuireError` gives nil, any other error stops the fuzzer.
    private static func expectQuireError<T>(_ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch is QuireError {
            return nil
        } catch {
            FuzzDriver.fail("not a QuireError: \(error)")
        }
    }

    /// Every item in `folder` must be a folder or regular file the listing names (or an
    /// ancestor of one), and each file must have the listed size.
    private static func checkExtracted(_ folder: URL, against listing: [ArchiveEntry]) {
        var expected: [String: ArchiveEntry] = [:]
        var ancestors: Set<String> = []
        for entry in listing {
            expected[entry.path] = entry
            let components = entry.path.split(separator: "/")
            for count in components.indices.dropLast() {
                ancestors.insert(components[...count].joined(separator: "/"))
            }
        }
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else {
            FuzzDriver.fail("cannot walk \(folder.path)")
        }
        while let relative = walker.nextObject() as? String {
            var info = stat()
            guard lstat(folder.appendingPathComponent(relative).path, &info) == 0 else {
                FuzzDriver.fail("cannot stat extracted \(relative)")
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                guard ancestors.contains(relative) || expected[relative]?.kind == .directory else {
                    FuzzDriver.fail("unexpected folder \(relative)")
                }
            case S_IFREG:
                guard let entry = expected[relative], entry.kind == .file, entry.size == Int64(info.st_size) else {
                    FuzzDriver.fail("unexpected file \(relative) of \(info.st_size) bytes")
                }
            default:
                FuzzDriver.fail("extracted something that is neither a folder nor a file: \(relative)")
            }
        }
    }
}
