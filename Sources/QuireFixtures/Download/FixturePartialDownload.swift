import Foundation
import Quire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The kept bytes of a download that did not finish, for the next install of the same
/// download to continue from (``FixtureDownload/resumesAcrossRuns``).
///
/// The file is `.quire-install.partial-<key>` in the temporary directory, where the key is a
/// digest of the URL, the expected SHA-256 and the expected size, so only the same download
/// continues from it; beside it, `<file>.validator` holds the `ETag` or `Last-Modified` the
/// bytes came with, sent as `If-Range` so a file changed on the server starts over. While an
/// install uses the file it holds an advisory `flock` on it: a second install of the same
/// download at the same time downloads into a scratch file of its own instead.
final class FixturePartialDownload: Sendable {
    /// The prefix of the kept files' names.
    static let prefix = ".quire-install.partial-"

    /// The kept bytes.
    let file: URL
    /// The validator beside them.
    let validatorFile: URL
    private let descriptor: Int32

    private init(file: URL, descriptor: Int32) {
        self.file = file
        validatorFile = file.appendingPathExtension("validator")
        self.descriptor = descriptor
    }

    /// The kept file for `download` in `directory`, created empty when there is none and
    /// locked; nil when another install holds it.
    static func claim(for download: FixtureDownload, in directory: URL) throws -> FixturePartialDownload? {
        let identity =
            "\(download.url.absoluteString)\n\(download.sha256 ?? "")\n\(download.expectedSize.map(String.init) ?? "")"
        let key = DigestText.hex(SHA256.hash(data: Data(identity.utf8))).prefix(32)
        let file = directory.appendingPathComponent("\(prefix)\(key)")
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw QuireError.posix(
                errno, "cannot keep a partial download in \(directory.path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return FixturePartialDownload(file: file, descriptor: descriptor)
    }

    /// The validator the kept bytes came with, nil when there is none (then they are not used).
    var validator: String? {
        guard let text = try? String(contentsOf: validatorFile, encoding: .utf8), !text.isEmpty else { return nil }
        return text
    }

    /// Records the validator of a response that starts the file over (removes it for nil).
    func record(validator: String?) {
        if let validator {
            try? Data(validator.utf8).write(to: validatorFile, options: .atomic)
        } else {
            try? FileManager.default.removeItem(at: validatorFile)
        }
    }

    /// Keeps the bytes for a later run and lets another install use them; with no bytes (or
    /// none a later run could continue from, for want of a validator) nothing is kept.
    func release() {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        if size == 0 || validator == nil {
            remove()
        } else {
            close(descriptor)
        }
    }

    /// Removes the bytes and the validator (the download finished, or its bytes are wrong).
    func remove() {
        try? FileManager.default.removeItem(at: validatorFile)
        try? FileManager.default.removeItem(at: file)
        close(descriptor)
    }
}
