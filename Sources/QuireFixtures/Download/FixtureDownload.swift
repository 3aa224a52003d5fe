import Foundation
import Quire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where to download a fixture archive from and what it must be: the request behind
/// ``FixtureInstaller/install(from:name:config:ifAbsent:limits:temporaryDirectory:progress:)``.
///
/// The archive is fetched with Foundation's `URLSession` (FoundationNetworking, on libcurl, on
/// Linux), not with the HTTP stack of `QuireSync`: an app that installs a prebuilt database
/// links only Foundation and Quire, no server framework and no event loops, and on Apple
/// platforms the system's proxy, TLS and VPN settings apply as they do to the app's other
/// requests. Each request streams into a temporary file through a delegate, so memory stays
/// flat whatever the archive's size.
///
/// A transfer that breaks after some bytes arrived (the connection dropped or timed out) is
/// resumed with an HTTP `Range` request from the first missing byte, with `If-Range` naming
/// the first response's strong `ETag` (or its `Last-Modified`), so a file changed on the server
/// meanwhile is sent whole instead of spliced; a server that ignores ranges answers 200 and
/// the download starts over. A server that is briefly down (a refused connection, or 429,
/// 500, 502, 503, 504) is tried again up to ``maximumRetries`` times, waiting
/// ``firstRetryWait`` and then twice as long each time (at most 8 s); any other failure
/// before a byte arrives (a 404, a server that never answers within ``timeout``) fails the
/// download.
///
/// With ``resumesAcrossRuns``, the bytes of a download that did not finish (the process was
/// killed, the task cancelled, the network lost) stay in the temporary directory, under a
/// name made from the URL and the expected SHA-256 and size, and the next install of the same
/// download continues from them.
///
/// Nothing is installed until the whole file is there and matches ``expectedSize`` and
/// ``sha256`` when they are given; a size the server announces that differs from
/// ``expectedSize`` (or exceeds ``maximumSize``) is refused before the body is read.
///
/// ```swift
/// let download = try FixtureDownload(
///     url: URL(string: "https://cdn.example.com/travel-20.quire.zip")!,
///     sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
/// try await FixtureInstaller.install(
///     from: download, name: "travel", config: DatabaseConfiguration(directory: appSupport), ifAbsent: true)
/// ```
public struct FixtureDownload: Sendable {
    /// The archive's `http` or `https` URL.
    public var url: URL
    /// The archive's SHA-256 as 64 hexadecimal digits (either case), or nil to not check it.
    public var sha256: String?
    /// The archive's size in bytes, or nil to not check it.
    public var expectedSize: Int64?
    /// The longest wait for the server to answer or send more bytes, in seconds. 60 by default.
    public var timeout: TimeInterval
    /// How many times a broken transfer is resumed before the download fails. 5 by default.
    public var maximumResumes: Int
    /// The largest archive accepted, in bytes; 16 GiB (``ArchiveLimits/default``'s total) by default.
    public var maximumSize: Int64
    /// How many times a request is tried again when the server cannot be reached or says it
    /// is briefly unavailable. 4 by default.
    public var maximumRetries = 4
    /// The wait before the first retry, in seconds; each later wait doubles (at most 8 s).
    /// 0.5 by default.
    public var firstRetryWait: TimeInterval = 0.5
    /// Whether the bytes of an unfinished download are kept for the next install of the same
    /// download to continue from (false by default: an unfinished download leaves nothing).
    public var resumesAcrossRuns = false

    /// A download of `url`. Throws invalidURL for a URL that is not `http` or `https`, and
    /// invalidParameter for a `sha256` that is not 64 hexadecimal digits or a limit below zero.
    public init(
        url: URL, sha256: String? = nil, expectedSize: Int64? = nil, timeout: TimeInterval = 60,
        maximumResumes: Int = 5,
        maximumSize: Int64 = ArchiveLimits.default.maximumTotalSize
    ) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw QuireError(
                .invalidURL,
                "cannot download '\(url.absoluteString)': only http and https URLs with a host are supported",
                domain: .network)
        }
        if let sha256 {
            guard sha256.count == 64, sha256.allSatisfy(\.isHexDigit) else {
                throw QuireError(.invalidParameter, "'\(sha256)' is not a SHA-256: it must be 64 hexadecimal digits")
            }
        }
        if let expectedSize, expectedSize < 0 {
            throw QuireError(.invalidParameter, "the expected size must not be negative, not \(expectedSize)")
        }
        guard timeout > 0 else { throw QuireError(.invalidParameter, "the timeout must be positive, not \(timeout)") }
        guard maximumResumes >= 0, maximumSize >= 0 else {
            throw QuireError(.invalidParameter, "maximumResumes and maximumSize must not be negative")
        }
        self.url = url
        self.sha256 = sha256?.lowercased()
        self.expectedSize = expectedSize
        self.timeout = timeout
        self.maximumResumes = maximumResumes
        self.maximumSize = maximumSize
    }

    /// Downloads the archive into `file` (created or emptied), resuming broken transfers, then
    /// checks its size and SHA-256. Cancelling the task cancels the request and throws
    /// `CancellationError`; `file` is left for the caller to remove.
    func fetch(into file: URL, progress: (@Sendable (FixtureDownloadProgress) -> Void)?) async throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw QuireError.posix(EIO, "cannot create the download file \(file.path)")
        }
        try await fetch(continuing: file, validator: nil, progress: progress)
    }

    /// Downloads the archive into `file`, which exists and may hold the first bytes of it from
    /// an earlier run, sent with `validator` as `If-Range`; `validatorChanged` is told the
    /// validator of every whole-file response. Then checks size and SHA-256 as above.
    func fetch(
        continuing file: URL, validator: String?, validatorChanged: (@Sendable (String?) -> Void)? = nil,
        progress: (@Sendable (FixtureDownloadProgress) -> Void)?
    ) async throws {
        let handle: FileHandle
        let kept: Int64
        do {
            handle = try FileHandle(forWritingTo: file)
            kept = Int64(try handle.seekToEnd())
        } catch {
            throw QuireError.posix(EIO, "cannot write the download file \(file.path): \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        let transfer = FixtureDownloadSession(
            download: self, handle: handle, kept: validator == nil ? 0 : kept, validator: validator,
            validatorChanged: validatorChanged, progress: progress)
        if validator == nil, kept > 0 {
            do {
                try handle.truncate(atOffset: 0)
            } catch {
                throw QuireError.posix(
                    EIO, "cannot write the download file \(file.path): \(error.localizedDescription)")
            }
        }
        let received = try await transfer.run()
        if let expectedSize, received != expectedSize {
            throw QuireError(
                .corruptData,
                "\(url.absoluteString) is \(received) bytes, not the expected \(expectedSize); nothing was installed")
        }
        if let sha256 {
            let actual = try FixtureDownload.sha256(of: file)
            guard actual == sha256 else {
                throw QuireError(
                    .corruptData,
                    "\(url.absoluteString) has SHA-256 \(actual), not the expected \(sha256); nothing was installed")
            }
        }
    }

    /// The SHA-256 of the file at `url`, in lowercase hexadecimal, read 1 MiB at a time.
    static func sha256(of url: URL) throws -> String {
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            var hasher = SHA256()
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(data: chunk)
            }
            return DigestText.hex(hasher.finalize())
        } catch {
            throw QuireError.posix(EIO, "cannot read the download file \(url.path): \(error.localizedDescription)")
        }
    }
}
