import Foundation
import Quire

extension FixtureInstaller {
    /// The prefix of the folders downloads are written in, in the temporary directory.
    static let downloadPrefix = ".quire-install.download-"

    /// Downloads a fixture archive and installs it as database `name` in `config.directory`,
    /// the way an app fetches its prebuilt database from a CDN on first launch.
    ///
    /// With `ifAbsent`, an existing database `name` is left untouched and nothing is
    /// downloaded. Otherwise the archive goes to a temporary file in `temporaryDirectory`
    /// (resumed with HTTP `Range` when the transfer breaks, see ``FixtureDownload``), is
    /// checked against the download's expected size and SHA-256, and is then installed exactly
    /// as ``install(archive:name:config:ifAbsent:limits:temporaryDirectory:)`` installs a local
    /// archive. The temporary file is removed whatever happens (one a killed process left is
    /// removed by the next download). Cancelling the task stops the
    /// download and throws `CancellationError`, installing nothing.
    ///
    /// ```swift
    /// let download = try FixtureDownload(url: archiveURL, sha256: published)
    /// try await FixtureInstaller.install(from: download, name: "travel", config: config, ifAbsent: true) { progress in
    ///     if let fraction = progress.fraction { print("\(Int(fraction * 100))%") }
    /// }
    /// ```
    ///
    /// - Parameter progress: called as bytes arrive, on a background queue.
    /// - Throws: a POSIX `EEXIST` error when the database exists (without `ifAbsent`), before
    ///   any download; a network-domain error for a failed request (`httpNotFound` for a 404,
    ///   `timeout` for a server that stops answering); `corruptData` for a size or SHA-256 that
    ///   does not match, or an archive that does not match its manifest.
    @discardableResult
    public static func install(
        from download: FixtureDownload, name: String, config: DatabaseConfiguration = DatabaseConfiguration(),
        ifAbsent: Bool = false, limits: ArchiveLimits = .default,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory,
        progress: (@Sendable (FixtureDownloadProgress) -> Void)? = nil
    ) async throws -> Outcome {
        if Database.exists(withName: name, inDirectory: config.directory) {
            if ifAbsent { return .alreadyPresent }
            throw QuireError.posix(
                EEXIST,
                "cannot install '\(download.url.absoluteString)': a database named '\(name)' already exists in \(config.directory)"
            )
        }
        // A locked folder, so a later install removes it if this process is killed, and
        // leaves it alone while this one runs. The file keeps the URL's name, so messages
        // about the archive name what was asked for.
        OwnedScratch.sweep(temporaryDirectory) { OwnedScratch.isScratchName($0, prefix: downloadPrefix) }
        let folder = try OwnedScratch.create(.folder, in: temporaryDirectory, prefix: downloadPrefix)
        defer { folder.remove() }
        let last = download.url.lastPathComponent
        let file = folder.url.appendingPathComponent(
            last.isEmpty || last == "/" || last.hasPrefix(".") ? "fixture.quire.zip" : last)
        try await download.fetch(into: file, progress: progress)
        try Task.checkCancellation()
        // Extracting and copying are blocking file work: keep them off the task pool's threads.
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try install(
                            archive: file, name: name, config: config, ifAbsent: ifAbsent, limits: limits,
                            temporaryDirectory: temporaryDirectory)
                    })
            }
        }
    }
}
