/// Where things are inside a fixture archive:
///
/// ```
/// manifest.json
/// <name>.quire/db.sqlite3            checkpointed and compacted; no -wal or -shm
/// <name>.quire/Attachments/<blob file name>.blob
/// ```
///
/// Blob files are named as ``DatasetBlobName`` describes, which is also how a Quire database
/// names them, so the `<name>.quire` folder is a database as it stands.
package enum FixtureLayout {
    /// The SQLite file's name inside a database folder.
    package static let databaseFileName = "db.sqlite3"

    /// The database folder's name for fixture `name`.
    package static func databaseFolder(_ name: String) -> String { "\(name).quire" }

    /// The archive's file name for fixture `name`.
    package static func archiveFileName(_ name: String) -> String { "\(name).quire.zip" }

    /// The archive path of the SQLite file.
    package static func databaseFilePath(_ name: String) -> String { "\(databaseFolder(name))/\(databaseFileName)" }

    /// The archive path of the blob folder.
    package static func attachmentsPath(_ name: String) -> String {
        "\(databaseFolder(name))/\(DatasetBlobName.folderName)"
    }

    /// The digest of the blob at archive path `path`, or nil when the path is not a blob file.
    package static func blobDigest(atPath path: String, name: String) -> String? {
        let prefix = attachmentsPath(name) + "/"
        guard path.hasPrefix(prefix) else { return nil }
        let fileName = String(path.dropFirst(prefix.count))
        guard !fileName.contains("/") else { return nil }
        return DatasetBlobName.digest(forFileName: fileName)
    }
}
