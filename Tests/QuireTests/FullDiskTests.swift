import Foundation
import Testing

@testable import Quire

/// Writes on a full filesystem fail with a clear error and lose nothing committed before.
/// Needs a small tmpfs, so it runs where `mount` is allowed (root, as in CI) and is skipped
/// elsewhere.
@Suite struct FullDiskTests {
    private static func mountSmallFilesystem(at path: String, size: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/mount")
        process.arguments = ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    private static func unmount(_ path: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/umount")
        process.arguments = [path]
        try? process.run()
        process.waitUntilExit()
    }

    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = TemporaryDirectory("quire-mount-probe")
        defer { unmount(probe.path) }
        return mountSmallFilesystem(at: probe.path, size: "64k")
    }()

    @Test(.enabled(if: canMount, "needs permission to mount a small tmpfs"))
    func aFullDiskFailsClearlyAndKeepsWhatWasCommitted() throws {
        let directory = TemporaryDirectory("quire-full")
        #expect(Self.mountSmallFilesystem(at: directory.path, size: "2m"))
        defer { Self.unmount(directory.path) }
        let config = DatabaseConfiguration(directory: directory.path)
        var committed = 0
        var failure: QuireError?
        do {
            let database = try Database(name: "full", config: config)
            let collection = try database.defaultCollection()
            let padding = String(repeating: "z", count: 1_000)
            for batch in 0..<10_000 {
                do {
                    try database.inBatch {
                        for item in 0..<10 {
                            try collection.save(
                                document: MutableDocument(id: "b\(batch)-\(item)", data: ["pad": padding]))
                        }
                    }
                    committed += 10
                } catch let error as QuireError {
                    failure = error
                    break
                }
            }
            try? database.close()
        }
        let error = try #require(failure, "the filesystem never filled up")
        #expect(error.domain == .sqlite)
        #expect(error.code == .ioError)
        #expect(error.message.contains("full"))
        #expect(committed > 0)

        let reopened = try Database(name: "full", config: config)
        let collection = try reopened.defaultCollection()
        #expect(collection.count == UInt64(committed))
        #expect(try reopened.read { try $0.scalarText("PRAGMA integrity_check") } == "ok")
        try reopened.close()
    }
}
