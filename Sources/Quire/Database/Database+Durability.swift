import Foundation

extension Database {
    /// Makes every write committed so far survive a power loss, whatever ``DatabaseConfiguration/fullSync``
    /// says: the write-ahead log and the database file are flushed to disk (`fsync`). Under
    /// `synchronous=NORMAL` a commit reaches the log but is flushed only at the next
    /// checkpoint; this is the flush CouchDB's `_ensure_full_commit` asks for. Returns the
    /// number of files flushed; notOpen when this object is closed, an I/O error when a file
    /// cannot be flushed.
    package func syncCommittedWrites() throws -> Int {
        try checkOpen()
        var synced = 0
        for path in [core.path + "-wal", core.path] where FileManager.default.fileExists(atPath: path) {
            try flushToDisk(path)
            synced += 1
        }
        return synced
    }
}

/// `fsync` of the file at `path`.
private func flushToDisk(_ path: String) throws {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw QuireError.posix(errno, "cannot open \(path) to flush it") }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw QuireError.posix(errno, "cannot flush \(path) to disk") }
}
