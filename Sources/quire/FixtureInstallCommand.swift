import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder
import QuireFixtures

/// `quire fixture install ZIP|URL --name NAME --directory DIR [--if-absent] [--sha256 HEX]
/// [--size BYTES] [--timeout SECONDS]`.
struct FixtureInstallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install a fixture archive, local or at an http(s) URL, as a named database.",
        discussion: """
            Extracts the archive safely into a temporary folder, checks it against its manifest, \
            then copies the database into DIR/NAME.quire with new UUIDs, keeping the fixture's \
            private UUID as the previous one. A refused archive leaves nothing in DIR.

            An http or https URL is downloaded to a temporary file first (a broken transfer is \
            resumed with an HTTP Range request) and checked against --size and --sha256 before \
            anything is installed. A server that is briefly down is tried again (up to 4 times, \
            waiting 0.5, 1, 2 and 4 s); an install that is interrupted or killed keeps what it \
            downloaded in the temporary folder, and the same install run again continues from \
            there. With --if-absent an existing database means nothing is downloaded.

            Example:
              quire fixture install out/my-travel.quire.zip --name travel --directory db
              quire fixture install https://cdn.example.com/t.quire.zip --name t --if-absent
            """
    )

    @Argument(help: "The fixture archive (.quire.zip): a file, or an http or https URL.")
    var archive: String

    @Option(help: "The database name to install as.")
    var name: String

    @Option(help: "The folder holding databases.")
    var directory: String

    @Flag(help: "Leave an existing database of that name untouched instead of failing.")
    var ifAbsent = false

    @Option(help: "The archive's SHA-256 (64 hexadecimal digits); a download that differs is refused.")
    var sha256: String?

    @Option(help: "The archive's size in bytes; a download of another size is refused.")
    var size: Int64?

    @Option(help: "Seconds to wait for the server to answer or send more bytes.")
    var timeout: Double = 60

    /// Whether `archive` names a URL rather than a file.
    private var isRemote: Bool {
        let lowered = archive.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    func validate() throws {
        if !isRemote, archive.contains("://") {
            throw ValidationError("'\(archive)' is not an http or https URL; only those can be downloaded.")
        }
        if let sha256, sha256.count != 64 || !sha256.allSatisfy(\.isHexDigit) {
            throw ValidationError("--sha256 '\(sha256)' is not a SHA-256: it must be 64 hexadecimal digits.")
        }
        if let size, size < 0 { throw ValidationError("--size must not be negative.") }
        if !isRemote, sha256 != nil || size != nil {
            throw ValidationError("--sha256 and --size apply to an http or https URL, not to the file '\(archive)'.")
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds.") }
    }

    func run() async throws {
        let config = DatabaseConfiguration(directory: directory)
        let outcome: FixtureInstaller.Outcome
        if isRemote {
            guard let url = URL(string: archive) else { throw ValidationError("'\(archive)' is not a valid URL.") }
            var download = try FixtureDownload(url: url, sha256: sha256, expectedSize: size, timeout: timeout)
            download.resumesAcrossRuns = true
            outcome = try await installWaiting(download, name: name, config: config, ifAbsent: ifAbsent)
        } else {
            // A local archive installs on the command's own thread: the process does nothing else.
            outcome = try FixtureInstaller.install(
                archive: URL(fileURLWithPath: archive), name: name, config: config, ifAbsent: ifAbsent)
        }
        let target = URL(fileURLWithPath: directory).appendingPathComponent("\(name).quire").path
        switch outcome {
        case .installed: print("Installed \(archive) as \(target)")
        case .alreadyPresent: print("\(target) exists; left untouched")
        }
    }

    /// Runs the download and install, drawing progress on a terminal; SIGINT or SIGTERM
    /// cancels it (nothing is installed; the bytes downloaded so far are kept for the next run).
    private func installWaiting(
        _ download: FixtureDownload, name: String, config: DatabaseConfiguration, ifAbsent: Bool
    ) async throws -> FixtureInstaller.Outcome {
        let line = TerminalProgressBar.isWanted() ? TerminalProgressBar() : nil
        let report = line.map { line in { @Sendable (progress: FixtureDownloadProgress) in line.show(progress.line) } }
        defer { line?.finish() }
        do {
            return try await cancellingOnSignal {
                try await FixtureInstaller.install(
                    from: download, name: name, config: config, ifAbsent: ifAbsent, progress: report)
            }
        } catch is CancellationError {
            FileHandle.standardError.write(
                Data(
                    "Interrupted; nothing was installed. What was downloaded is kept: the same install continues from it.\n"
                        .utf8))
            throw ExitCode.failure
        }
    }
}
