import Foundation
import Quire

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps `TZ` still while libarchive runs: `setenv` racing with another thread's `localtime`
/// (which libarchive calls) is undefined behaviour in glibc.
///
/// Tests that use libarchive share it (``withArchiveLock(_:)``), so a long one, such as a
/// build that pulls from a listener, holds up no other; only a change of `TZ`
/// (``withTimeZone(_:_:)``) takes it alone. A test waiting on a plain lock here used to block
/// one of Swift concurrency's threads, and two of them waiting on a remote build, whose
/// replication needs those threads, stalled the whole process until the replication timed out.
package final class ArchiveLock: @unchecked Sendable {
    // @unchecked: the pthread lock is the synchronisation; it lives in its own allocation.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` while no `TZ` change runs.
    func shared<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` while nothing else holds the lock.
    func exclusive<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}

/// The one ``ArchiveLock`` of the test process.
package let archiveLock = ArchiveLock()

/// Runs `body`, which uses libarchive, sharing ``archiveLock`` with other such tests.
@discardableResult
package func withArchiveLock<T>(_ body: () throws -> T) rethrows -> T {
    try archiveLock.shared(body)
}

/// Runs `body` with the process time zone set to `zone`, holding ``archiveLock`` alone. The
/// caller must not hold it already, and should wait from a thread of its own
/// (``onOwnThread(_:)``): a writer waits for every sharer, and a sharer may be a remote
/// build that needs Swift concurrency's threads.
///
/// `TZ` is overwritten, never removed: removing and re-adding it reallocates `environ`, which
/// other tests' threads read through `getenv`. When it was unset, it is restored to
/// `:/etc/localtime`, which is what glibc uses for an unset `TZ`.
package func withTimeZone<T>(_ zone: String, _ body: () throws -> T) rethrows -> T {
    try archiveLock.exclusive {
        let previous = getenv("TZ").map { String(cString: $0) } ?? ":/etc/localtime"
        setenv("TZ", zone, 1)
        tzset()
        defer {
            setenv("TZ", previous, 1)
            tzset()
        }
        return try body()
    }
}

/// Runs blocking work on a thread of its own, off Swift concurrency's threads, and returns
/// its result.
package func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// A fresh folder under the system temporary folder, removed by `cleanUp()`.
package struct ScratchFolder: Sendable {
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
