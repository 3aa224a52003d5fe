import Foundation

extension Database {
    /// Copies the database folder at `path` (a `<name>.quire` folder, or its `db.sqlite3`)
    /// to a new database `name` in `config.directory`, the way an app installs a prebuilt
    /// database on first launch.
    ///
    /// The copy is made in a hidden temporary folder beside the target
    /// (`.<name>.quire.copy-<UUID>`) and renamed into place when complete. The folder is
    /// locked while the copy runs, and every copy first removes the folders of copies whose
    /// process died (no lock held any more), so a killed copy leaves nothing for good. It gets
    /// new private and public UUIDs, and remembers the source's private UUID (and the source's
    /// own previous ones, most recent first) so its first replication still finds checkpoints
    /// made before the copy.
    ///
    /// The source must not be open in this process: as in Couchbase Lite (LiteCore's
    /// PrebuiltCopier.cc, c4DatabaseTest "Database copy"), copying an open database is `busy`;
    /// close it first. Another process may be writing it: the copy is one consistent snapshot
    /// of what was committed.
    ///
    /// - Throws: notFound when there is no database at `path`; busy when this process has the
    ///   source open; a POSIX `EEXIST` error when the target exists.
    public static func copy(
        fromPath path: String, toDatabase name: String, withConfig config: DatabaseConfiguration? = nil
    )
        throws
    {
        let (sourceFolder, sourceFile) = try copySource(path)
        guard !CoreRegistry.shared.isOpen(path: sourceFile) else {
            throw QuireError(.busy, "the database at \(sourceFolder) is open, so it cannot be copied: close it first")
        }
        try copySnapshot(fromPath: path, toDatabase: name, withConfig: config)
    }

    /// ``copy(fromPath:toDatabase:withConfig:)`` without its check that the source is closed:
    /// the copy is one consistent snapshot of what was committed, even while this process
    /// writes the source.
    package static func copySnapshot(
        fromPath path: String, toDatabase name: String, withConfig config: DatabaseConfiguration? = nil
    ) throws {
        let config = config ?? DatabaseConfiguration()
        let manager = FileManager.default
        let (sourceFolder, sourceFile) = try copySource(path)
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw QuireError(
                .invalidParameter, "invalid database name '\(name)': it must be non-empty and contain no '/'")
        }
        let target = folderPath(name: name, directory: config.directory)
        guard !manager.fileExists(atPath: target) else {
            throw QuireError.posix(EEXIST, "cannot copy to \(target): a database named '\(name)' already exists")
        }
        do {
            try manager.createDirectory(atPath: config.directory, withIntermediateDirectories: true)
        } catch {
            throw QuireError.posix(EIO, "cannot create directory \(config.directory): \(error.localizedDescription)")
        }
        let directory = URL(fileURLWithPath: config.directory, isDirectory: true)
        sweepAbandonedCopies(in: directory)
        let scratch = try OwnedScratch.create(.folder, in: directory, prefix: ".\(name).\(folderExtension).copy-")
        defer { scratch.remove() }
        let staging = scratch.url.path
        // Snapshot first, blobs second: a blob is in place before the document that refers to it
        // commits, so every document in the snapshot finds its blob in the folder listed after it.
        // The other order would miss blobs of documents committed between the two steps.
        try SnapshotCopy.copy(from: sourceFile, to: staging + "/" + fileName)
        try copyBlobs(from: sourceFolder + "/Attachments", to: staging + "/Attachments")
        try regenerateIdentity(ofFile: staging + "/" + fileName, fullSync: config.fullSync)
        try moveIntoPlace(staging, target, name: name)
    }

    /// The database folder and file that `path` (the folder or its `db.sqlite3`) names.
    private static func copySource(_ path: String) throws -> (folder: String, file: String) {
        var folder = path.hasSuffix("/") ? String(path.dropLast()) : path
        if folder.hasSuffix("/" + fileName) { folder = String(folder.dropLast(fileName.count + 1)) }
        let file = folder + "/" + fileName
        guard FileManager.default.fileExists(atPath: file) else {
            throw QuireError(.notFound, "no database to copy at \(path) (expected \(file))")
        }
        return (folder, file)
    }

    /// Makes the database folder at `path`, which nobody else has open (a fixture just
    /// extracted and checked, in scratch this process holds), database `name` in
    /// `config.directory`: new UUIDs as ``copy(fromPath:toDatabase:withConfig:)`` gives, then
    /// a rename into place. `path` must be on the same file system as `config.directory`.
    ///
    /// - Throws: a POSIX `EEXIST` error when the target exists; `EXDEV` across file systems.
    package static func adopt(folder path: String, asDatabase name: String, withConfig config: DatabaseConfiguration)
        throws
    {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw QuireError(
                .invalidParameter, "invalid database name '\(name)': it must be non-empty and contain no '/'")
        }
        let file = path + "/" + fileName
        guard FileManager.default.fileExists(atPath: file) else {
            throw QuireError(.notFound, "no database to install at \(path) (expected \(file))")
        }
        let target = folderPath(name: name, directory: config.directory)
        guard !FileManager.default.fileExists(atPath: target) else {
            throw QuireError.posix(EEXIST, "cannot install to \(target): a database named '\(name)' already exists")
        }
        try regenerateIdentity(ofFile: file, fullSync: config.fullSync)
        try moveIntoPlace(path, target, name: name)
    }

    /// Removes the staging folders of copies into `directory` whose process has died.
    package static func sweepAbandonedCopies(in directory: URL) {
        OwnedScratch.sweep(directory) { name in
            guard name.hasPrefix("."), let marker = name.range(of: ".\(folderExtension).copy-", options: .backwards)
            else {
                return false
            }
            return OwnedScratch.isScratchName(name, prefix: String(name[..<marker.upperBound]))
        }
    }

    private static func moveIntoPlace(_ staging: String, _ target: String, name: String) throws {
        guard rename(staging, target) == 0 else {
            let code = errno
            if code == EEXIST || code == ENOTEMPTY {
                throw QuireError.posix(EEXIST, "cannot copy to \(target): a database named '\(name)' already exists")
            }
            throw QuireError.posix(
                code, "cannot move the copy into place at \(target): \(String(cString: strerror(code)))")
        }
    }

    /// Copies the blob files of a folder that may be being written: files still being written
    /// (hidden temporary names) are skipped, and so is a file that vanishes while listed.
    private static func copyBlobs(from source: String, to target: String) throws {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: target, withIntermediateDirectories: false)
            guard manager.fileExists(atPath: source) else { return }
            for name in try manager.contentsOfDirectory(atPath: source) where !name.hasPrefix(".") {
                do {
                    try manager.copyItem(atPath: source + "/" + name, toPath: target + "/" + name)
                } catch CocoaError.fileReadNoSuchFile, CocoaError.fileNoSuchFile {
                    continue
                }
            }
        } catch {
            throw QuireError.posix(EIO, "cannot copy the blobs of \(source): \(error.localizedDescription)")
        }
    }

    private static func regenerateIdentity(ofFile file: String, fullSync: Bool) throws {
        let connection = try Connection(path: file, role: .writer, options: Connection.Options(fullSync: fullSync))
        defer { connection.close() }
        try StoreSchema.migrator.migrate(connection)
        try connection.transaction {
            let previousPrivate = try connection.scalarText(
                "SELECT value FROM quire_info WHERE key = 'privateUUID'")
            var previous = try previousUUIDs(connection)
            if let previousPrivate { previous.insert(previousPrivate, at: 0) }
            let list = try JSONWriter.string(.array(previous.map { .string($0) }))
            try connection.run(
                "INSERT OR REPLACE INTO quire_info (key, value) VALUES ('privateUUID', ?), ('publicUUID', ?), ('previousPrivateUUIDs', ?)",
                [.text(UUID().uuidString), .text(UUID().uuidString), .text(list)])
        }
        // The copy leaves no WAL behind, so the folder is complete on its own.
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    static func previousUUIDs(_ connection: Connection) throws -> [String] {
        guard let text = try connection.scalarText("SELECT value FROM quire_info WHERE key = 'previousPrivateUUIDs'"),
            case .array(let values) = try JSONReader.parse(text)
        else { return [] }
        return values.compactMap(\.stringValue)
    }

    /// The private UUIDs this database had before it was copied, most recent first: the
    /// replicator tries their checkpoints when its own UUID has none.
    package func previousPrivateUUIDs() throws -> [String] {
        try read { try Database.previousUUIDs($0) }
    }
}
