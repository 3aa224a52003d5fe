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
    /// removed by the next download), unless the download ``FixtureDownload/resumesAcrossRuns``:
    /// then the bytes of an unfinished download stay for the next install of it to continue.
    /// Cancelling the task stops the download and throws `CancellationError`, installing
    /// nothing. Errors about the archive name its URL, not the temporary file.
    ///
    /// ```swift
    /// let download = try FixtureDownload(url: archiveURL, sha256: published)
    /// try await FixtureInstaller.install(from: download, name: "travel", config: config, ifAbsent: true) { progress in
    ///     if let fraction = progress.fraction { print("\(Int(fraction * 100))%") }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - download: the archive's URL and what it must hash to.
    ///   - name: the database's name.
    ///   - config: where the database goes (`config.directory`).
    ///   - ifAbsent: when a database `name` exists, leave it untouched, download nothing and
    ///     return ``Outcome/alreadyPresent``.
    ///   - limits: the bounds an archive's entries must keep to.
    ///   - temporaryDirectory: where the archive is downloaded and extracted before it is checked.
    ///   - progress: called as bytes arrive, on a background queue.
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
        if download.resumesAcrossRuns,
            let partial = try FixturePartialDownload.claim(for: download, in: temporaryDirectory)
        {
            do {
                try await download.fetch(
                    continuing: partial.file, validator: partial.validator,
                    validatorChanged: { partial.record(validator: $0) }, progress: progress)
                try Task.checkCancellation()
            } catch let error as QuireError where error.code == .corruptData {
                partial.remove()
                throw error
            } catch {
                partial.release()
                throw error
            }
            defer { partial.remove() }
            return try await installDownloaded(
                partial.file, from: download, name: name, config: config, ifAbsent: ifAbsent, limits: limits,
                temporaryDirectory: temporaryDirectory)
        }
        let folder = try OwnedScratch.create(.folder, in: temporaryDirectory, prefix: downloadPrefix)
        defer { folder.remove() }
        let last = download.url.lastPathComponent
        let file = folder.url.appendingPathComponent(
            last.isEmpty || last == "/" || last.hasPrefix(".") ? "fixture.quire.zip" : last)
        try await download.fetch(into: file, progress: progress)
        try Task.checkCancellation()
        return try await installDownloaded(
            file, from: download, name: name, config: config, ifAbsent: ifAbsent, limits: limits,
            temporaryDirectory: temporaryDirectory)
    }

    /// Installs the downloaded `file`; errors name the download's URL where they named the file.
    private static func installDownloaded(
        _ file: URL, from download: FixtureDownload, name: String, config: DatabaseConfiguration, ifAbsent: Bool,
        limits: ArchiveLimits, temporaryDirectory: URL
    ) async throws -> Outcome {
        // Extracting and copying are blocking file work: keep them off the task pool's threads.
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        do {
                            return try install(
                                archive: file, name: name, config: config, ifAbsent: ifAbsent, limits: limits,
                                temporaryDirectory: temporaryDirectory)
                        } catch var error as QuireError {
                            error.message = error.message.replacingOccurrences(
                                of: file.path, with: download.url.absoluteString)
                            throw error
                        }
                    })
            }
        }
    }
}
