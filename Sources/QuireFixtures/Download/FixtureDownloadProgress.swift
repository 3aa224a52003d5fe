/// How far a fixture download has come, reported as bytes arrive
/// (see ``FixtureInstaller/install(from:name:config:ifAbsent:limits:temporaryDirectory:progress:)``).
public struct FixtureDownloadProgress: Sendable, Equatable {
    /// The bytes of the archive received so far, those of earlier interrupted requests included.
    public var receivedBytes: Int64
    /// The archive's whole size when the server said it (`Content-Length`, or the total of a
    /// `Content-Range`), else nil.
    public var totalBytes: Int64?
    /// How many times the transfer was resumed after an interruption.
    public var resumes: Int
    /// How many times a request was tried again after the server could not be reached or
    /// answered that it was briefly unavailable.
    public var retries: Int

    /// The part received, from 0 to 1; nil while the size is not known.
    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(receivedBytes) / Double(totalBytes))
    }

    /// Makes a progress report.
    public init(receivedBytes: Int64, totalBytes: Int64?, resumes: Int, retries: Int = 0) {
        self.receivedBytes = receivedBytes
        self.totalBytes = totalBytes
        self.resumes = resumes
        self.retries = retries
    }
}
