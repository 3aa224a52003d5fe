import Foundation
import Quire

/// Puts a fixture archive in place as a named database, the way an app does on first launch
/// (`quire fixture install`).
///
/// The archive is extracted by ``SafeArchiveReader`` into a temporary folder in the system's
/// temporary directory, and every entry checked against the manifest; only then is the
/// database copied into place with `Database.copy` semantics: new private and public UUIDs,
/// the fixture's private UUID kept as the previous one (so the first replication finds the
/// checkpoints made when the fixture was built), and the copy renamed into place when whole.
/// A refused archive writes nothing in the target directory, and the temporary folder is
/// always removed.
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
    ///   - ifAbsent: when a database `name` exists, leave it untouched and return
    ///     ``Outcome/alreadyPresent`` instead of failing.
    ///   - temporaryDirectory: where the archive is extracted before it is checked (a hidden
    ///     folder there, always removed).
    /// - Throws: a POSIX `EEXIST` error when the database exists (without `ifAbsent`);
    ///   `corruptData` for an unsafe archive or one that does not match its manifest.
    @discardableResult
    public static func install(
        archive: URL, name: String, config: DatabaseConfiguration = DatabaseConfiguration(), ifAbsent: Bool = false,
        limits: ArchiveLimits = .default, temporaryDirectory: URL = FileManager.default.temporaryDirectory
    ) throws -> Outcome {
        if Database.exists(withName: name, inDirectory: config.directory) {
            if ifAbsent { return .alreadyPresent }
            throw QuireError.posix(EEXIST, "cannot install '\(archive.lastPathComponent)': a database named '\(name)' already exists in \(config.directory)")
        }
        let scratch = temporaryDirectory.appendingPathComponent("quire-install-\(UUID().uuidString)")
        let unpacked = try UnpackedFixture.extract(archive, nextTo: scratch, limits: limits)
        defer { unpacked.remove() }
        let problems = unpacked.checkFiles().filter { !$0.passed }
        guard problems.isEmpty else {
            let listed = problems.prefix(3).map { "\($0.subject) \($0.problem ?? "")" }.joined(separator: "; ")
            throw QuireError(
                .corruptData,
                "'\(archive.lastPathComponent)' does not match its manifest (\(problems.count) problem\(problems.count == 1 ? "" : "s")): \(listed)")
        }
        do {
            try Database.copy(fromPath: unpacked.databaseFolder.path, toDatabase: name, withConfig: config)
        } catch let error as QuireError where ifAbsent && error.domain == .posix && error.underlyingCode == EEXIST {
            // Another process installed it between the check above and the copy.
            return .alreadyPresent
        }
        return .installed
    }

    /// Installs `archive` as database `name` unless one exists, then opens it: the one call
    /// an app makes at launch.
    ///
    /// - Throws: as ``install(archive:name:config:ifAbsent:limits:temporaryDirectory:)``, and
    ///   whatever opening the database throws.
    public static func installIfAbsent(
        archive: URL, name: String, config: DatabaseConfiguration = DatabaseConfiguration(), limits: ArchiveLimits = .default,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory
    ) throws -> Database {
        try install(
            archive: archive, name: name, config: config, ifAbsent: true, limits: limits, temporaryDirectory: temporaryDirectory)
        return try Database(name: name, config: config)
    }
}
