import Foundation
import Quire

#if canImport(Glibc)
    import Glibc
#endif

/// Serialises every test that uses libarchive or changes `TZ`: `setenv` racing with another
/// thread's `localtime` (which libarchive calls) is undefined behaviour in glibc.
package let archiveLock = NSLock()

/// Runs `body` holding ``archiveLock``.
@discardableResult
package func withArchiveLock<T>(_ body: () throws -> T) rethrows -> T {
    archiveLock.lock()
    defer { archiveLock.unlock() }
    return try body()
}

/// Runs `body` with the process time zone set to `zone` (caller holds ``archiveLock``).
///
/// `TZ` is overwritten, never removed: removing and re-adding it reallocates `environ`, which
/// other tests' threads read through `getenv`. When it was unset, it is restored to
/// `:/etc/localtime`, which is what glibc uses for an unset `TZ`.
package func withTimeZone<T>(_ zone: String, _ body: () throws -> T) rethrows -> T {
    let previous = getenv("TZ").map { String(cString: $0) } ?? ":/etc/localtime"
    setenv("TZ", zone, 1)
    tzset()
    defer {
        setenv("TZ", previous, 1)
        tzset()
    }
    return try body()
}

/// A fresh folder under the system temporary folder, removed by `cleanUp()`.
package struct ScratchFolder {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-fixtures-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    package func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    package func folder(_ name: String) throws -> URL {
        let folder = url.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    package func write(_ text: String, to name: String) throws -> URL {
        let target = file(name)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
        return target
    }

    package func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// Names in a folder (recursive, relative), for "nothing was left behind" checks.
package func contents(of folder: URL) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    return (enumerator.allObjects as? [String] ?? []).sorted()
}

/// Runs an executable (the built `quire`) with `TMPDIR` set to `temporary`, and returns its
/// exit status and its output and errors together.
package func runCommand(
    _ executable: URL, _ arguments: [String], temporary: URL, in directory: URL,
    environment extra: [String: String] = [:]
) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporary.path
    environment.merge(extra) { _, new in new }
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
}
