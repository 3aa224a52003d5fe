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
            unpacked = try Self.extractForInspection(archiveURL, limits: limits)
        } catch {
            report.checks.append(.init(subject: "archive", problem: Self.describe(error)))
            return report
        }
        defer { unpacked.remove() }
        let manifest = unpacked.manifest
        report.checks.append(
            .init(
                subject: FixtureManifest.fileName,
                detail:
                    "'\(manifest.name)', format \(manifest.formatVersion), Quire \(manifest.quireVersion), built \(manifest.buildTimestamp)"
            ))
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
        var checks: [FixtureVerificationReport.Check] = [
            .init(subject: "integrity", detail: "SQLite integrity check ok")
        ]
        checks.append(checkSchema(probe.schemaVersion, format: manifest.formatVersion))
        var expected = Dictionary(
            manifest.collections.map { ($0.name, $0.documentCount) }, uniquingKeysWith: { first, _ in first })
        for collection in probe.collections {
            let subject = "collection \(collection.name)"
            guard let count = expected.removeValue(forKey: collection.name) else {
                checks.append(.init(subject: subject, problem: "is in the database but not in the manifest"))
                continue
            }
            checks.append(
                count == collection.documentCount
                    ? .init(subject: subject, detail: "\(count) documents")
                    : .init(
                        subject: subject,
                        problem: "has \(collection.documentCount) documents; the manifest says \(count)"))
        }
        for name in expected.keys.sorted() {
            checks.append(.init(subject: "collection \(name)", problem: "is in the manifest but not in the database"))
        }
        checks += checkIndexes(probe.indexes, against: manifest.indexes)
        return checks
    }

    /// The database's schema version must be one the manifest's format holds: a format-1
    /// fixture has `WITHOUT ROWID` document tables (schema 1–2), a format-2 one tables keyed
    /// by sequence (schema 3).
    static func checkSchema(_ version: Int64, format: Int) -> FixtureVerificationReport.Check {
        guard let expected = QuireFixtures.schemaVersions(forFormat: format) else {
            return .init(subject: "schema", problem: "format \(format) is not one this Quire reads")
        }
        guard expected.contains(version) else {
            let range =
                expected.count == 1 ? "\(expected.lowerBound)" : "\(expected.lowerBound) to \(expected.upperBound)"
            return .init(
                subject: "schema",
                problem: "version \(version) does not match format \(format), which holds schema \(range)")
        }
        return .init(subject: "schema", detail: "version \(version) (fixture format \(format))")
    }

    /// Compares the database's index catalogue with the manifest: every index in both, with
    /// the same kind, expressions and, for full-text, `ignoreAccents` and language. A manifest
    /// that leaves the last two out means the defaults a build applies (false, `en`).
    static func checkIndexes(
        _ actual: [FixtureDatabaseProbe.IndexFacts], against listed: [FixtureManifest.IndexDescription]
    ) -> [FixtureVerificationReport.Check] {
        var checks: [FixtureVerificationReport.Check] = []
        var expected = Dictionary(
            listed.map { ("\($0.collection)/\($0.name)", $0) }, uniquingKeysWith: { first, _ in first })
        for index in actual {
            let key = "\(index.collection)/\(index.name)"
            let subject = "index \(key)"
            guard let description = expected.removeValue(forKey: key) else {
                checks.append(.init(subject: subject, problem: "is in the database but not in the manifest"))
                continue
            }
            var problems: [String] = []
            if index.kind != description.kind {
                problems.append(
                    "kind is \(index.kind?.rawValue ?? "'\(index.rawKind)'"); the manifest says \(description.kind.rawValue)"
                )
            }
            if index.expressions != description.expressions {
                problems.append(
                    "expressions are \(quoted(index.expressions)); the manifest says \(quoted(description.expressions))"
                )
            }
            if description.kind == .fullText, index.kind == .fullText {
                let ignoreAccents = description.ignoreAccents ?? false
                if index.ignoreAccents != ignoreAccents {
                    problems.append(
                        "ignoreAccents is \(index.ignoreAccents.map { "\($0)" } ?? "unset"); the manifest says \(ignoreAccents)"
                    )
                }
                let language = description.language ?? "en"
                if (index.language ?? "") != language {
                    problems.append(
                        "language is \(index.language.map { "'\($0)'" } ?? "none"); the manifest says '\(language)'")
                }
            }
            checks.append(
                problems.isEmpty
                    ? .init(
                        subject: subject,
                        detail: "\(description.kind.rawValue) on \(description.expressions.joined(separator: ", "))")
                    : .init(subject: subject, problem: problems.joined(separator: "; ")))
        }
        for key in expected.keys.sorted() {
            checks.append(.init(subject: "index \(key)", problem: "is in the manifest but not in the database"))
        }
        return checks
    }

    private static func quoted(_ expressions: [String]) -> String {
        "[" + expressions.map { "'\($0)'" }.joined(separator: ", ") + "]"
    }

    /// Extracts `archive` into the system's temporary folder, after removing what killed
    /// runs left there.
    static func extractForInspection(_ archive: URL, limits: ArchiveLimits) throws -> UnpackedFixture {
        let temporary = FileManager.default.temporaryDirectory
        UnpackedFixture.sweep(temporary)
        return try UnpackedFixture.extract(
            archive, in: temporary, prefix: UnpackedFixture.inspectionPrefix, limits: limits)
    }

    static func describe(_ error: Error) -> String {
        (error as? QuireError)?.message ?? "\(error)"
    }
}
