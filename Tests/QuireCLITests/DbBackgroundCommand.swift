import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `quire` process left running (`quire serve`), stopped with SIGTERM.
final class DbBackgroundCommand {
    let processIdentifier: pid_t
    /// Where its standard output and error go.
    let log: URL
    private var isReaped = false

    init(processIdentifier: pid_t, log: URL) {
        self.processIdentifier = processIdentifier
        self.log = log
    }

    /// What it has written so far.
    var output: String {
        String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
    }

    /// Waits until its output has a line starting with `prefix` and returns that line; the
    /// 30-second bound is only a safety net against a child that hangs (it ends the wait with
    /// an error naming what the child wrote).
    func waitForLine(startingWith prefix: String) throws -> String {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            var status: Int32 = 0
            if waitpid(processIdentifier, &status, WNOHANG) == processIdentifier {
                isReaped = true
                throw POSIXError(
                    .ECHILD,
                    userInfo: [NSLocalizedDescriptionKey: "quire exited before printing '\(prefix)': \(output)"])
            }
            usleep(20_000)
        }
        throw POSIXError(
            .ETIMEDOUT, userInfo: [NSLocalizedDescriptionKey: "quire did not print '\(prefix)': \(output)"])
    }

    /// Sends `signal` and waits (at most 60 s, then SIGKILL) for it to end; returns its exit
    /// status and everything it wrote, nil when it had ended already.
    func finish(with signal: Int32) -> (status: Int32, output: String)? {
        guard !isReaped else { return nil }
        kill(processIdentifier, signal)
        let status = DbCommandRunner.reap(processIdentifier, within: 60)
        isReaped = true
        let written = output
        try? FileManager.default.removeItem(at: log)
        return (status, written)
    }

    /// Sends SIGTERM and waits for it to end; returns its exit status, nil when it had ended already.
    @discardableResult
    func stop() -> Int32? {
        guard !isReaped else { return nil }
        kill(processIdentifier, SIGTERM)
        var raw: Int32 = 0
        while waitpid(processIdentifier, &raw, 0) == -1 && errno == EINTR {}
        isReaped = true
        try? FileManager.default.removeItem(at: log)
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }
}
