import Foundation
import Quire

/// Describes a fixture archive (`quire fixture inspect`): the manifest, and per collection
/// the documents and bytes the database really holds.
///
/// The archive is extracted safely into a temporary folder, removed afterwards, and the
/// database read without changes. Inspecting does not judge: ``FixtureVerifier`` does.
public enum FixtureInspector {
    /// Inspects `archive`.
    ///
    /// - Throws: `corruptData` for an unsafe or damaged archive or manifest, or a database
    ///   that fails SQLite's integrity check.
    public static func inspect(archive: URL, limits: ArchiveLimits = .default) throws -> FixtureInspection {
        let unpacked = try FixtureVerifier.extractForInspection(archive, limits: limits)
        defer { unpacked.remove() }
        let manifest = unpacked.manifest
        let probe = try FixtureDatabaseProbe(path: unpacked.databaseFile.path)
        guard probe.integrityProblems.isEmpty else {
            throw QuireError(
                .corruptData,
                "the database in '\(archive.lastPathComponent)' fails its integrity check: "
                    + probe.integrityProblems.prefix(5).joined(separator: "; "))
        }
        let collections = probe.collections.map { facts in
            FixtureInspection.CollectionDetails(
                name: facts.name, documentCount: facts.documentCount,
                manifestDocumentCount: manifest.collections.first { $0.name == facts.name }?.documentCount,
                bodyBytes: facts.bodyBytes,
                indexes: probe.indexes.filter { $0.collection == facts.name }.map(\.name))
        }
        var blobBytes: Int64 = 0
        for digest in manifest.blobs {
            let path =
                "\(FixtureLayout.attachmentsPath(manifest.name))/\(try DatasetBlobName.fileName(forDigest: digest))"
            blobBytes += size(of: unpacked.folder.appendingPathComponent(path))
        }
        return FixtureInspection(
            archive: archive.lastPathComponent, archiveBytes: size(of: archive),
            databaseBytes: size(of: unpacked.databaseFile), blobCount: manifest.blobs.count, blobBytes: blobBytes,
            collections: collections, manifest: manifest)
    }

    /// Stable JSON for `inspection`: sorted keys, two-space indentation, final newline.
    public static func json(_ inspection: FixtureInspection) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(inspection) + Data([0x0a])
    }

    private static func size(of url: URL) -> Int64 {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
