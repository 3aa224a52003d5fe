/// What ``FixtureInspector`` reports about a fixture archive: its manifest, and per
/// collection what the database holds.
public struct FixtureInspection: Codable, Sendable, Equatable {
    /// One collection as the database holds it.
    public struct CollectionDetails: Codable, Sendable, Equatable {
        /// The full name, `scope.collection`.
        public var name: String
        /// Live documents in the database.
        public var documentCount: Int
        /// The manifest's count, nil when the manifest does not list the collection.
        public var manifestDocumentCount: Int?
        /// Bytes of the live documents' JSON bodies.
        public var bodyBytes: Int64
        /// The collection's indexes, by name.
        public var indexes: [String]
    }

    /// The archive's file name.
    public var archive: String
    /// The archive's size in bytes.
    public var archiveBytes: Int64
    /// The SQLite file's size in bytes.
    public var databaseBytes: Int64
    /// Blob files, and their bytes in all.
    public var blobCount: Int
    /// Bytes of all blob files.
    public var blobBytes: Int64
    /// Per collection, in the database's catalog order.
    public var collections: [CollectionDetails]
    /// The manifest as written in the archive.
    public var manifest: FixtureManifest

    /// A readable summary.
    public var text: String {
        var lines = [
            "\(archive): fixture '\(manifest.name)', format \(manifest.formatVersion), built by Quire \(manifest.quireVersion) "
                + "at \(manifest.buildTimestamp)",
            "  archive \(archiveBytes) bytes; database \(databaseBytes) bytes; \(blobCount) blob\(blobCount == 1 ? "" : "s"), "
                + "\(blobBytes) bytes",
            "  collections:",
        ]
        let width = collections.map(\.name.count).max() ?? 0
        for collection in collections {
            let padded = collection.name + String(repeating: " ", count: width - collection.name.count)
            var line = "    \(padded)  \(collection.documentCount) documents, \(collection.bodyBytes) bytes of JSON"
            if collection.manifestDocumentCount != collection.documentCount {
                line += " (manifest: \(collection.manifestDocumentCount.map(String.init) ?? "not listed"))"
            }
            if !collection.indexes.isEmpty { line += "; indexes: \(collection.indexes.joined(separator: ", "))" }
            lines.append(line)
        }
        lines.append("  indexes in the manifest:")
        lines +=
            manifest.indexes.isEmpty
            ? ["    none"]
            : manifest.indexes.map { index in
                "    \(index.collection)/\(index.name): \(index.kind.rawValue) on \(index.expressions.joined(separator: ", "))"
            }
        if let checkpoints = manifest.checkpoints, !checkpoints.isEmpty {
            lines.append("  replication checkpoints (the first sync of an installed copy resumes from them):")
            lines += checkpoints.map { "    \($0.collection): \($0.checkpointID) from \($0.remoteURL)" }
        }
        lines.append("  entries:")
        lines += manifest.entries.map { "    \($0.path)  \($0.size) bytes  sha256 \($0.sha256)" }
        lines += manifest.blobs.map { "    blob \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
