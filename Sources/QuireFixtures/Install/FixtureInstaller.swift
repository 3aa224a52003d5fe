import Foundation
import Quire

/// Puts a fixture archive in place as a named database, the way an app does on first launch
/// (`quire fixture install`).
///
/// The archive is extracted by ``SafeArchiveReader`` into a hidden temporary folder and every
/// entry checked against the manifest; only then does the database get new private and public
/// UUIDs, the fixture's private UUID kept as the previous one (so the first replication finds
/// the checkpoints made when the fixture was built), and is renamed into place whole. A
/// refused archive writes nothing in the target directory.
///
/// Where the temporary folder goes: `.quire-install.extract-<UUID>` in `temporaryDirectory`
/// when that is on the same file system as `config.directory`, so the final step is a rename;
/// otherwise in `config.directory` itself (created if needed), so that it still is a rename and
/// never a copy of the whole database. The folder is removed when the install ends, whatever
/// happens. If the process is killed first, the folder stays, locked by no one: every install
/// starts by removing such folders (and the staging folders of killed
/// `Database.copy(fromPath:toDatabase:withConfig:)` calls) from both places. Folders of
/// installs still running, in this process or another, are locked and left alone, so
/// concurrent installs sharing a temporary directory do not disturb each other.
///
/// ```swift
/// guard let archive = Bundle.main.url(forResource: "travel-20.quire", withExtension: "zip") else { return }
/// let database = try FixtureInstaller.installIfAbsent(
///     archive: archive, name: "travel", config: DatabaseConfiguration(directory: appSupport))
/// ```
public enum FixtureInstaller {
    /// What ``install(archive:name:config:ifAbsent:limits:temporaryDirectory:)`` did.
    public enum Outcome: Sendable, Equatable {
        /// The fixture was installed.
        case installed
        /// A database of that name was there already and was left untouched.
        case alreadyPresent
    }

    /// Installs `archive` as database `name` in `config.directory`.
    ///
    /// - Parameters:
    ///   - archive: the fixture archive (`.quire.zip`).
    ///   - name: the database's name.
    ///   - config: where the database goes (`config.directory`).
    ///   - limits: the bounds an archive's entries must keep to (sizes, counts, compression ratio).
    ///   - ifAbsent: when a database `name` exists, leave it untouched and return
    ///     ``Outcome/alreadyPresent`` instead of failing.
    ///   - temporaryDirectory: where the archive is extracted before it is checked, when it is
    ///     on the same file system as `config.directory` (see ``FixtureInstaller``).
    /// - Throws: a POSIX `EEXIST` error when the database exists (without `ifAbsent`);
    ///   `corruptData` for an unsafe archive or one that does not match its manifest.
    @discardableResult
    public static func install(
        archive: URL, name: String, config: DatabaseConfiguration = DatabaseConfiguration(), ifAbsent: Bool = false,
        limits: ArchiveLimits = .default, temporaryDirectory: URL = FileManager.default.temporaryDirectory
    ) throws -> Outcome {
        if Database.exists(withName: name, inDirectory: config.directory) {
            if ifAbsent { return .alreadyPresent }
            throw QuireError.posix(
                EEXIST,
                "cannot install '\(archive.lastPathComponent)': a database named '\(name)' already exists in \(config.directory)"
            )
        }
        let directory = URL(fileURLWithPath: config.directory, isDirectory: true)
        let parent = try scratchParent(temporaryDirectory: temporaryDirectory, databaseDirectory: directory)
        UnpackedFixture.sweep(temporaryDirectory)
        if FileManager.default.fileExists(atPath: directory.path) {
            UnpackedFixture.sweep(directory)
            Database.sweepAbandonedCopies(in: directory)
        }
        let unpacked = try UnpackedFixture.extract(
            archive, in: parent, prefix: UnpackedFixture.installPrefix, limits: limits)
        defer { unpacked.remove() }
        let problems = unpacked.checkFiles().filter { !$0.passed }
        guard problems.isEmpty else {
            let listed = problems.prefix(3).map { "\($0.subject) \($0.problem ?? "")" }.joined(separator: "; ")
            throw QuireError(
                .corruptData,
                "'\(archive.lastPathComponent)' does not match its manifest (\(problems.count) problem\(problems.count == 1 ? "" : "s")): \(listed)"
            )
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw QuireError.posix(EIO, "cannot create directory \(config.directory): \(error.localizedDescription)")
        }
        do {
            do {
                try Database.adopt(folder: unpacked.databaseFolder.path, asDatabase: name, withConfig: config)
            } catch let error as QuireError where error.domain == .posix && error.underlyingCode == EXDEV {
                // Same device number, yet not one mount (a bind mount): copy instead.
                try Database.copy(fromPath: unpacked.databaseFolder.path, toDatabase: name, withConfig: config)
            }
        } catch let error as QuireError where ifAbsent && error.domain == .posix && error.underlyingCode == EEXIST {
            // Another process installed it between the check above and the rename.
            return .alreadyPresent
        }
        return .installed
    }

    /// The folder to extract in: `temporaryDirectory` when a rename from there reaches
    /// `databaseDirectory` (the same device), else `databaseDirectory`, created here.
    private static func scratchParent(temporaryDirectory: URL, databaseDirectory: URL) throws -> URL {
        if let temporaryDevice = device(of: temporaryDirectory),
            let databaseDevice = device(ofNearest: databaseDirectory),
            temporaryDevice == databaseDevice
        {
            return temporaryDirectory
        }
        do {
            try FileManager.default.createDirectory(at: databaseDirectory, withIntermediateDirectories: true)
        } catch {
            throw QuireError.posix(
                EIO, "cannot create directory \(databaseDirectory.path): \(error.localizedDescription)")
        }
        return databaseDirectory
    }

    private static func device(of url: URL) -> dev_t? {
        var info = stat()
        return stat(url.path, &info) == 0 ? info.st_dev : nil
    }

    /// The device of `url`, or of its closest ancestor that exists (the folder that will hold it).
    private static func device(ofNearest url: URL) -> dev_t? {
        var current = url.standardizedFileURL
        while true {
            if let device = device(of: current) { return device }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
    }

    /// Installs `archive` as database `name` unless one exists, then opens it: the one call
    /// an app makes at launch.
    ///
    /// - Throws: as ``install(archive:name:config:ifAbsent:limits:temporaryDirectory:)``, and
    ///   whatever opening the database throws.
    public static func installIfAbsent(
        archive: URL, name: String, config: DatabaseConfiguration = DatabaseConfiguration(),
        limits: ArchiveLimits = .default,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory
    ) throws -> Database {
        try install(
            archive: archive, name: name, config: config, ifAbsent: true, limits: limits,
            temporaryDirectory: temporaryDirectory)
        return try Database(name: name, config: config)
    }
}
