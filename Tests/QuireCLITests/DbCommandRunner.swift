import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `quire` executable for the `quire db` tests and collects what it wrote.
///
/// The child is started with `posix_spawn` (through `env -C` for its working directory), not
/// Foundation's `Process.run`, which scans `/proc/self/fd` into a fixed buffer that
/// AddressSanitizer reports as an overflow when the test process holds many descriptors
/// (RELIABILITY.md). Standard output and standard error go to files in the scratch folder,
/// read once the child has exited.
struct DbCommandRunner {
    /// What one run gave.
    struct Outcome {
        /// The exit status, or 128 + the signal's number.
        var status: Int32
        /// Standard output.
        var output: String
        /// Standard error.
        var errors: String
    }

    /// The `quire` executable beside the test bundle.
    static var quireURL: URL? {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ].compactMap { $0 }
        return candidates.map { $0.appendingPathComponent("quire") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }

    /// The executable.
    let executable: URL
    /// The working directory, also the child's `TMPDIR`.
    let directory: URL

    /// Runs `quire` with `arguments`, standard input from `input` (empty when nil).
    func run(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) throws -> Outcome {
        let stamp = UUID().uuidString
        let outputURL = directory.appendingPathComponent(".out-\(stamp)")
        let errorURL = directory.appendingPathComponent(".err-\(stamp)")
        let inputURL = directory.appendingPathComponent(".in-\(stamp)")
        try Data((input ?? "").utf8).write(to: inputURL)
        defer { [outputURL, errorURL, inputURL].forEach { try? FileManager.default.removeItem(at: $0) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputURL.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = directory.path
        environment.merge(extra) { _, new in new }
        let words = ["/usr/bin/env", "-C", directory.path, executable.path] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        closeInheritedDescriptors(&actions)
        var pid: pid_t = 0
        let started = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, envp)
        guard started == 0 else { throw POSIXError(POSIXErrorCode(rawValue: started) ?? .EIO) }
        // Waits for the child; after two minutes (a safety net: every run here takes well
        // under a second or two) it is killed, so a hang fails the test instead of stalling it.
        let status = Self.reap(pid, within: 120)
        return Outcome(
            status: status,
            output: String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self),
            errors: String(decoding: (try? Data(contentsOf: errorURL)) ?? Data(), as: UTF8.self))
    }

    /// Waits for child `pid` to end, killing it after `seconds`; returns its exit status, or
    /// 128 + the number of the signal that ended it.
    static func reap(_ pid: pid_t, within seconds: TimeInterval) -> Int32 {
        var raw: Int32 = 0
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let result = waitpid(pid, &raw, WNOHANG)
            if result == pid || (result == -1 && errno != EINTR) { break }
            if Date() > deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
                break
            }
            usleep(5_000)
        }
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }

    /// Starts `quire` with `arguments` without waiting for it (`quire serve`); its standard
    /// output and error go to one file that ``DbBackgroundCommand/waitForOutput(containing:)`` reads.
    func start(_ arguments: [String]) throws -> DbBackgroundCommand {
        let log = directory.appendingPathComponent(".background-\(UUID().uuidString)")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = directory.path
        let words = ["/usr/bin/env", "-C", directory.path, executable.path] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        closeInheritedDescriptors(&actions)
        var pid: pid_t = 0
        let started = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, envp)
        guard started == 0 else { throw POSIXError(POSIXErrorCode(rawValue: started) ?? .EIO) }
        return DbBackgroundCommand(processIdentifier: pid, log: log)
    }

    /// Runs `quire` with `arguments` and returns its standard output, recording an issue
    /// (with what it said) unless it exits with 0.
    func succeed(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> String {
        let outcome = try run(arguments, input: input, environment: environment)
        guard outcome.status == 0 else {
            throw DbCommandFailed(arguments: arguments, outcome: outcome)
        }
        return outcome.output
    }
}

/// A `quire` run the test expected to succeed exited with another status.
struct DbCommandFailed: Error, CustomStringConvertible {
    let arguments: [String]
    let outcome: DbCommandRunner.Outcome

    var description: String {
        "quire \(arguments.joined(separator: " ")) exited with \(outcome.status): \(outcome.errors)\(outcome.output)"
    }
}
