import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ServeCommand {
    /// The warning for a secret file (`what`: "password file", "TLS private key") that other
    /// users of this machine can read, or nil when they cannot (or it cannot be inspected).
    static func exposureWarning(_ path: String, what: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IROTH != 0 else { return nil }
        let mode = String(info.st_mode & 0o777, radix: 8)
        return
            "warning: the \(what) \(path) can be read by every user of this machine (mode \(mode)); make it private with chmod 600.\n"
    }

    /// Writes ``exposureWarning(_:what:)`` to standard error when there is one.
    static func warnIfExposed(_ path: String, what: String) {
        if let warning = exposureWarning(path, what: what) {
            FileHandle.standardError.write(Data(warning.utf8))
        }
    }
}
