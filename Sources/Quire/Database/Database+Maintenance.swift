import Foundation

extension Database {
    /// Does one kind of upkeep on the database (see ``MaintenanceType``).
    ///
    /// `.compact`, `.optimize` and `.fullOptimize` need the writer outside a transaction, so
    /// they throw transactionNotClosed inside ``inBatch(using:)`` or another write.
    /// `.integrityCheck` throws corruptData naming every problem it finds.
    ///
    /// - Throws: ``QuireError/Code/transactionNotClosed`` for `.compact`, `.optimize` and
    ///   `.fullOptimize` inside a batch or write; ``QuireError/Code/corruptData`` from
    ///   `.integrityCheck`, naming each problem; ``QuireError/Code/notOpen`` when the database is
    ///   closed.
    public func performMaintenance(type: MaintenanceType) throws {
        try checkOpen()
        switch type {
        case .compact:
            try compact()
        case .reindex:
            try write { connection in
                try connection.execute("REINDEX")
                try IndexCatalog.rebuildIndexTables(connection)
            }
        case .integrityCheck:
            try checkIntegrity()
        case .optimize:
            try core.writeOutsideTransaction { try $0.execute("PRAGMA optimize") }
        case .fullOptimize:
            try core.writeOutsideTransaction { connection in
                // analysis_limit 0 makes ANALYZE read every row rather than a sample.
                let previous = try connection.scalarInt("PRAGMA analysis_limit") ?? 0
                try connection.execute("PRAGMA analysis_limit = 0")
                defer { try? connection.execute("PRAGMA analysis_limit = \(previous)") }
                try connection.execute("ANALYZE")
            }
        }
    }

    /// Deletes the blob files no stored body refers to, then vacuums.
    ///
    /// Couchbase Lite keeps the blobs of current revisions only; a tombstone's body is empty,
    /// so deleting a document lets its blobs go. The scan and the deletions happen while
    /// this thread holds the writer, so no document referring to a blob can be committed in
    /// between; a save that has installed blobs but not yet committed has pinned them.
    private func compact() throws {
        if core.callerIsWriting {
            throw QuireError(
                .transactionNotClosed, "cannot compact database '\(name)' from inside one of its own writes or batches")
        }
        let store = blobStore
        try write { connection in
            let referenced = try BlobReferences.scan(connection).digests
            _ = try store.removeBlobs(keeping: referenced)
        }
        try core.writeOutsideTransaction { connection in
            try connection.execute("VACUUM")
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Runs SQLite's integrity check and checks every blob file a document refers to.
    private func checkIntegrity() throws {
        var problems: [String] = []
        let references: BlobReferences
        do {
            references = try read { connection in
                do {
                    let report = try connection.query("PRAGMA integrity_check") { $0.text(at: 0) ?? "" }
                    if report != ["ok"] {
                        problems += report.prefix(20).map { "SQLite: \($0)" }
                        if report.count > 20 { problems.append("SQLite: \(report.count - 20) more problems") }
                    }
                } catch let error as QuireError where error.code == .corruptData || error.code == .memoryError {
                    // Damage that stops the check itself: a b-tree page it cannot walk, or a cell
                    // claiming a size SQLite answers "out of memory" to (0xFF over part of a leaf).
                    problems.append("SQLite: \(error.message)")
                }
                return try BlobReferences.scan(connection)
            }
        } catch let error as QuireError
            where error.code == .corruptData || error.code == .corruptRevisionData || !problems.isEmpty
        {
            // Damage SQLite reported above can also stop the documents from being read, with
            // any error: a damaged cell can claim a length SQLite answers "out of memory" to.
            problems.append("the documents cannot be read to find their blobs: \(error.message)")
            throw QuireError(
                .corruptData, "integrity check of database '\(name)' failed: " + problems.joined(separator: "; "))
        }
        let store = blobStore
        var damaged: [(digest: String, problem: String)] = []
        for digest in references.locations.keys.sorted() {
            let byLength = references.locations[digest] ?? [:]
            for (length, location) in byLength.sorted(by: { ($0.key ?? 0, $0.value) < ($1.key ?? 0, $1.value) }) {
                guard let length else {
                    damaged.append((digest, "\(location) refers to blob \(digest) without a valid length"))
                    continue
                }
                do {
                    try store.verify(digest: digest, length: length)
                } catch let error as QuireError {
                    damaged.append((digest, "\(location) refers to a damaged blob: \(error.message)"))
                }
            }
        }
        if !damaged.isEmpty {
            // A compaction may have deleted a blob whose last reference went after the
            // snapshot above; only blobs still referred to count.
            let current = try read { try BlobReferences.scan($0).digests }
            problems += damaged.filter { current.contains($0.digest) }.map(\.problem)
        }
        if !problems.isEmpty {
            throw QuireError(
                .corruptData, "integrity check of database '\(name)' failed: " + problems.joined(separator: "; "))
        }
    }
}
