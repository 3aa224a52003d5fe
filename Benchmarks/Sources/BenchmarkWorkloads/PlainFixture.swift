import CSQLiteBaseline
import Foundation
import QuireFixtureBuilder
import QuireFixtures

/// The hand-rolled fixture the fixture workloads compare against: the same JSON lines in one
/// plain SQLite table, built and shipped the simplest way that still gives a compact file.
///
/// Building reads the dataset's JSON lines and inserts each with SQLite's own JSON functions
/// (`json_extract` for the ID, `json_remove` for the body without it), in transactions of
/// the same size as Quire's builder, then checkpoints and vacuums the file and packs it with
/// the same zip writer and deflate level. Installing extracts the archive with the same safe
/// reader, renames the file into place, opens it and reads one document.
enum PlainFixture {
    /// The database file's name inside the archive.
    static let fileName = "fixture.sqlite3"

    /// Builds `<folder>/fixture.zip` from the JSON lines file `source`; returns the archive.
    static func build(source: URL, into folder: URL, batchSize: Int) throws -> URL {
        let work = folder.appendingPathComponent("plain-build", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let databaseFile = work.appendingPathComponent(fileName)
        let connection = try RawConnection(path: databaseFile.path, create: true)
        try connection.execute("CREATE TABLE docs (key TEXT NOT NULL UNIQUE, body TEXT NOT NULL)")
        let insert = try connection.prepare(
            "INSERT INTO docs (key, body) VALUES (json_extract(?1, '$._id'), json_remove(?1, '$._id'))")
        defer { sqlite3_finalize(insert) }
        let lines = try Data(contentsOf: source)
        var inBatch = 0
        try connection.execute("BEGIN IMMEDIATE")
        try lines.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            for line in bytes.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
                bindStatic(insert, 1, UnsafeRawBufferPointer(rebasing: line).assumingMemoryBound(to: UInt8.self))
                try connection.stepToEnd(insert)
                inBatch += 1
                if inBatch == batchSize {
                    try connection.execute("COMMIT; BEGIN IMMEDIATE")
                    inBatch = 0
                }
            }
        }
        try connection.execute("COMMIT")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE); VACUUM")
        connection.close()
        let archive = folder.appendingPathComponent("fixture.zip")
        try ReproducibleZipWriter(compressionLevel: 6).write([.file(fileName, from: databaseFile)], to: archive)
        return archive
    }

    /// Extracts `archive` next to `destination`, renames its database file to `destination`,
    /// opens it and reads the body of document `id`; returns the open connection.
    static func install(archive: URL, at destination: URL, readingID id: String) throws -> RawConnection {
        let extracted = try SafeArchiveReader(archiveURL: archive).extract(nextTo: destination)
        defer { try? FileManager.default.removeItem(at: extracted) }
        try FileManager.default.moveItem(at: extracted.appendingPathComponent(fileName), to: destination)
        let connection = try RawConnection(path: destination.path, create: false)
        let select = try connection.prepare("SELECT body FROM docs WHERE key = ?")
        defer { sqlite3_finalize(select) }
        var key = id
        let found = key.withUTF8 { key in
            bindStatic(select, 1, key)
            defer { sqlite3_reset(select) }
            return sqlite3_step(select) == SQLITE_ROW && sqlite3_column_bytes(select, 0) > 0
        }
        guard found else { throw WorkloadFailure("document \(id) not found in the installed fixture") }
        return connection
    }
}
