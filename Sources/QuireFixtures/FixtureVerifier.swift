import Foundation
import Quire

/// Checks a fixture archive against its manifest (`quire fixture verify`).
///
/// The archive is extracted by ``SafeArchiveReader`` into a temporary folder (removed
/// afterwards); every entry's hash is recomputed (SHA-256 for listed entries, SHA-1 for
/// blobs, which are named by it); the database is opened read-only, put through SQLite's
/// integrity check, and its collections, document counts and indexes compared with the
/// manifest. Every difference is one failed check in the report; nothing stops at the first.
public struct FixtureVerifier: Sendable {
    /// The archive.
    public var archiveURL: URL
    /// Limits for reading it.
    public var limits: ArchiveLimits

    /// Makes a verifier.
    public init(archiveURL: URL, limits: ArchiveLimits = .default) {
        self.archiveURL = archiveURL
        self.limits = limits
    }

    /// Runs every check. Problems with the archive are reported, not thrown.
    public func verify() -> FixtureVerificationReport {
        var report = FixtureVerificationReport(archive: archiveURL.lastPathComponent, checks: [])
        let unpacked: UnpackedFixture
        do {
            unpacked = try UnpackedFixture.extract(archiveURL, nextTo: Self.scratchLocation(), limits: limits)
        } catch {
            report.checks.append(.init(subject: "archive", problem: Self.describe(error)))
            return report
        }
        defer { unpacked.remove() }
        let manifest = unpacked.manifest
        report.checks.append(
            .init(
                subject: FixtureManifest.fileName,
                detail: "'\(manifest.name)', format \(manifest.formatVersion), Quire \(manifest.quireVersion), built \(manifest.buildTimestamp)"))
        report.checks += unpacked.checkFiles()
        guard FileManager.default.fileExists(atPath: unpacked.databaseFile.path) else { return report }
        report.checks += Self.checkDatabase(at: unpacked.databaseFile, against: manifest)
        return report
    }

    static func checkDatabase(at file: URL, against manifest: FixtureManifest) -> [FixtureVerificationReport.Check] {
        let probe: FixtureDatabaseProbe
        do {
            probe = try FixtureDatabaseProbe(path: file.path)
        } catch {
            return [.init(subject: "database", problem: "cannot be read: \(describe(error))")]
        }
        guard probe.integrityProblems.isEmpty else {
            return [.init(subject: "integrity", problem: probe.integrityProblems.prefix(5).joined(separator: "; "))]
        }
        var checks: [FixtureVerificationReport.Check] = [.init(subject: "integrity", detail: "SQLite integrity check ok")]
        var expected = Dictionary(manifest.collections.map { ($0.name, $0.documentCount) }, uniquingKeysWith: { first, _ in first })
        for collection in probe.collections {
            let subject = "collection \(collection.name)"
            guard let count = expected.removeValue(forKey: collection.name) else {
                checks.append(.init(subject: subject, problem: "is in the database but not in the manifest"))
                continue
            }
            checks.append(
                count == collection.documentCount
                    ? .init(subject: subject, detail: "\(count) documents")
                    : .init(subject: subject, problem: "has \(collection.documentCount) documents; the manifest says \(count)"))
        }
        for name in expected.keys.sorted() {
            checks.append(.init(subject: "collection \(name)", problem: "is in the manifest but not in the database"))
        }
        var expectedIndexes = Set(manifest.indexes.map { "\($0.collection)/\($0.name)" })
        for index in probe.indexes {
            let key = "\(index.collection)/\(index.name)"
            checks.append(
                expectedIndexes.remove(key) != nil
                    ? .init(subject: "index \(key)")
                    : .init(subject: "index \(key)", problem: "is in the database but not in the manifest"))
        }
        for key in expectedIndexes.sorted() {
            checks.append(.init(subject: "index \(key)", problem: "is in the manifest but not in the database"))
        }
        return checks
    }

    /// A name in the system's temporary folder for an extraction to sit beside.
    static func scratchLocation() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("quire-fixture-\(UUID().uuidString)")
    }

    static func describe(_ error: Error) -> String {
        (error as? QuireError)?.message ?? "\(error)"
    }
}
