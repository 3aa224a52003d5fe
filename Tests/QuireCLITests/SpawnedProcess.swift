import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, for the tests that kill children at random
/// points. Foundation's `Process.run` first scans `/proc/self/fd` into a fixed buffer, which
/// AddressSanitizer reports as a heap overflow when the test process holds many descriptors
/// (the listener load test beside these tests holds a thousand sockets).
final class SpawnedProcess: @unchecked Sendable {
    // Safe because `status` is read and written only under `lock`.

    /// How the child ended.
    enum TerminationReason {
        case exit, uncaughtSignal
    }

    let processIdentifier: pid_t
    private let lock = NSLock()
    private var status: Int32?

    /// Starts `executable` with `arguments` in `directory` (through `env -C`, which then execs
    /// it, so the process ID is the executable's), its output sent to `output` (standard output
    /// and standard error both; the file is created or truncated) or to /dev/null.
    init(
        executable: URL, arguments: [String], directory: URL, environment: [String: String], output: URL? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let output {
            posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let words = ["/usr/bin/env", "-C", directory.path, executable.path] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        closeInheritedDescriptors(&actions)
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        processIdentifier = pid
    }

    /// Whether the child has not ended yet (reaping it once it has).
    var isRunning: Bool {
        lock.withLock {
            reap(blocking: false)
            return status == nil
        }
    }

    /// Waits for the child to end.
    func waitUntilExit() {
        lock.withLock { reap(blocking: true) }
    }

    /// The exit status, or the signal's number when a signal ended it.
    var terminationStatus: Int32 {
        lock.withLock {
            guard let status else { return -1 }
            return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
        }
    }

    /// Whether the child exited or a signal ended it.
    var terminationReason: TerminationReason {
        lock.withLock { (status ?? 0) & 0x7f == 0 ? .exit : .uncaughtSignal }
    }

    private func reap(blocking: Bool) {
        guard status == nil else { return }
        var raw: Int32 = 0
        while true {
            let result = waitpid(processIdentifier, &raw, blocking ? 0 : WNOHANG)
            if result == processIdentifier {
                status = raw
                return
            }
            if result == -1 && errno == EINTR { continue }
            return
        }
    }
}

/// Adds to `actions` the closing of every descriptor above standard error in the child, so
/// nothing else of the test process reaches it: an inherited pipe end (another suite's child's
/// standard input, say) would keep that pipe open for as long as this child lives. glibc's
/// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later) does it; Swift's Glibc module
/// does not declare it, so it is looked up by name.
func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    else { return }
    _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
}
