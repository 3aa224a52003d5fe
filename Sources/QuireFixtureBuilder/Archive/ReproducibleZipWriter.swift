import CArchive
import Foundation
import Quire
import QuireFixtures

/// Writes zip archives that are byte-for-byte the same for the same inputs, on any machine.
///
/// What would otherwise leak into the bytes, and how it is pinned down:
/// - **Order**: entries are sorted by their name in the archive (UTF-8 byte order), whatever
///   order they were given in or found on disk; missing parent folders are added.
/// - **Owner and permissions**: uid and gid 0 with no user or group names; files 0644,
///   folders 0755, whatever the source files' modes or the umask.
/// - **Time**: one fixed ``timestamp`` in every entry. libarchive converts times to the zip's
///   MS-DOS field with `localtime`, and it copies a set modification time into an "UT" extra
///   field as raw Unix seconds, so any one value it is given is wrong in one of the two
///   places for some time zone. Entries are therefore written with no time at all (the "UT"
///   field then carries none, and the DOS field holds libarchive's 1980-01-01 floor), and the
///   DOS fields are then stamped with the timestamp's UTC wall clock by
///   `ZipTimestampPatcher`, which works from the central directory. The DOS field holds
///   1980...2107 in 2-second steps, so a timestamp outside that range is clamped and an odd
///   second rounds down.
/// - **Names**: always UTF-8 with the zip UTF-8 flag, whatever the locale.
/// - **Blocking**: no padding after the end-of-central-directory record.
///
/// The archive is written to a temporary file next to the destination and renamed into place,
/// so a failed write never leaves a partial archive behind. File contents are streamed.
/// Deflate output is what the platform's zlib makes at ``compressionLevel``; the same zlib
/// version is needed for identical bytes across machines.
public struct ReproducibleZipWriter: Sendable {
    /// The time stamped on every entry.
    public var timestamp: FixtureTimestamp
    /// Deflate level, 1 (fastest) to 9 (smallest).
    public var compressionLevel: Int

    /// Makes a writer.
    ///
    /// - Parameters:
    ///   - timestamp: the time for every entry; usually ``FixtureTimestamp/fromEnvironment(_:)``.
    ///   - compressionLevel: deflate level, 1...9.
    public init(timestamp: FixtureTimestamp = .fallback, compressionLevel: Int = 6) {
        self.timestamp = timestamp
        self.compressionLevel = compressionLevel
    }

    /// Writes `entries` to a zip at `destination`, replacing any file there.
    ///
    /// The archive is written as `.<file name>.partial-<UUID>` beside `destination`, locked
    /// while it is written, and renamed into place when complete. Partial files of writes to
    /// the same destination whose process was killed are removed first.
    ///
    /// - Throws: `QuireError.invalidParameter` for a bad or duplicate path, a path that is both
    ///   a file and a folder, or a source that is not a regular file; POSIX errors for I/O;
    ///   `QuireError.unexpectedError` when libarchive fails.
    public func write(_ entries: [Entry], to destination: URL) throws {
        guard (1...9).contains(compressionLevel) else {
            throw QuireError(.invalidParameter, "compression level \(compressionLevel) is not in 1...9")
        }
        let planned = try Self.plan(entries)
        let folder = destination.deletingLastPathComponent()
        let prefix = ".\(destination.lastPathComponent).partial-"
        OwnedScratch.sweep(folder) { OwnedScratch.isScratchName($0, prefix: prefix) }
        let scratch = try OwnedScratch.create(.file, in: folder, prefix: prefix)
        let partial = scratch.url
        do {
            try writeArchive(planned, to: partial.path)
            try ZipTimestampPatcher.stamp(
                archiveAt: partial.path, with: DOSDateTime(secondsSinceEpoch: timestamp.secondsSinceEpoch))
            guard rename(partial.path, destination.path) == 0 else {
                throw QuireError.posix(errno, "cannot move the archive into place at '\(destination.path)'")
            }
            scratch.close()
        } catch {
            scratch.remove()
            throw error
        }
    }

    /// Entries for everything inside `folder` (files and sub-folders, not `folder` itself), with
    /// archive paths relative to it, optionally under `prefix`.
    ///
    /// - Throws: `QuireError.invalidParameter` on a symbolic link or special file, since a
    ///   fixture must not depend on what a link points to.
    public static func entries(forContentsOf folder: URL, prefix: String? = nil) throws -> [Entry] {
        var result: [Entry] = []
        try collect(folder, relative: prefix, into: &result)
        return result
    }

    private static func collect(_ folder: URL, relative: String?, into result: inout [Entry]) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw QuireError(.notFound, "cannot list folder '\(folder.path)': \(error.localizedDescription)")
        }
        for name in names.sorted() {
            let url = folder.appendingPathComponent(name)
            let path = relative.map { "\($0)/\(name)" } ?? name
            var info = stat()
            guard lstat(url.path, &info) == 0 else { throw QuireError.posix(errno, "cannot stat '\(url.path)'") }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                result.append(.file(path, from: url))
            case S_IFDIR:
                result.append(.directory(path))
                try collect(url, relative: path, into: &result)
            case S_IFLNK:
                throw QuireError(
                    .invalidParameter, "'\(url.path)' is a symbolic link; fixtures hold regular files and folders only")
            default:
                throw QuireError(
                    .invalidParameter, "'\(url.path)' is a special file; fixtures hold regular files and folders only")
            }
        }
    }

    /// Validates, completes with parent folders, and sorts the entries.
    static func plan(_ entries: [Entry]) throws -> [(name: String, entry: Entry)] {
        var byPath: [String: Entry] = [:]
        for entry in entries {
            let path = try ArchivePath.normalize(entry.path, code: .invalidParameter)
            if let existing = byPath[path] {
                guard existing.isDirectory && entry.isDirectory else {
                    throw QuireError(.invalidParameter, "archive entry '\(entry.path)' is given twice (as '\(path)')")
                }
            }
            byPath[path] = Entry(path: path, content: entry.content)
        }
        for path in Array(byPath.keys) {
            for ancestor in ArchivePath.ancestors(of: path) {
                if let existing = byPath[ancestor] {
                    guard existing.isDirectory else {
                        throw QuireError(
                            .invalidParameter,
                            "archive entry '\(ancestor)' is a file but '\(path)' needs it to be a folder")
                    }
                } else {
                    byPath[ancestor] = .directory(ancestor)
                }
            }
        }
        return byPath.values
            .map { (name: $0.isDirectory ? $0.path + "/" : $0.path, entry: $0) }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    private func writeArchive(_ planned: [(name: String, entry: Entry)], to path: String) throws {
        guard let archive = archive_write_new() else {
            throw QuireError(.memoryError, "libarchive could not allocate a writer")
        }
        defer { archive_write_free(archive) }
        func check(_ status: Int32, _ what: String) throws {
            guard status == ARCHIVE_OK else {
                throw QuireError(.unexpectedError, "\(what): \(LibArchiveMessage.of(archive))")
            }
        }
        try check(archive_write_set_format_zip(archive), "cannot select the zip format")
        try check(
            archive_write_set_options(
                archive, "zip:compression=deflate,zip:compression-level=\(compressionLevel),zip:hdrcharset=UTF-8"),
            "cannot set zip options")
        try check(archive_write_set_bytes_per_block(archive, 65_536), "cannot set the block size")
        try check(archive_write_set_bytes_in_last_block(archive, 1), "cannot turn off padding")
        try check(archive_write_open_filename(archive, path), "cannot create '\(path)'")

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { buffer.deallocate() }
        for (name, entry) in planned {
            guard let header = archive_entry_new() else {
                throw QuireError(.memoryError, "libarchive could not allocate an entry")
            }
            defer { archive_entry_free(header) }
            var source: PosixFile?
            archive_entry_update_pathname_utf8(header, name)
            archive_entry_set_uid(header, 0)
            archive_entry_set_gid(header, 0)
            switch entry.content {
            case .directory:
                archive_entry_set_filetype(header, LibArchiveFileType.directory)
                archive_entry_set_perm(header, 0o755)
                archive_entry_set_size(header, 0)
            case .bytes(let data):
                archive_entry_set_filetype(header, LibArchiveFileType.regular)
                archive_entry_set_perm(header, 0o644)
                archive_entry_set_size(header, Int64(data.count))
            case .file(let url):
                let file = try PosixFile.openForReading(url.path)
                source = file
                archive_entry_set_filetype(header, LibArchiveFileType.regular)
                archive_entry_set_perm(header, 0o644)
                archive_entry_set_size(header, try file.size())
            }
            try check(archive_write_header(archive, header), "cannot write the header of '\(name)'")
            switch entry.content {
            case .directory:
                break
            case .bytes(let data):
                try data.withUnsafeBytes { bytes in
                    try Self.writeData(archive, bytes, name: name)
                }
            case .file:
                guard let file = source else { break }
                let declared = archive_entry_size(header)
                var copied: Int64 = 0
                while true {
                    let count = try file.read(into: buffer)
                    if count == 0 { break }
                    copied += Int64(count)
                    guard copied <= declared else { break }
                    try Self.writeData(archive, UnsafeRawBufferPointer(rebasing: buffer[0..<count]), name: name)
                }
                guard copied == declared else {
                    throw QuireError(.ioError, "'\(file.path)' changed size while it was being archived")
                }
                try file.close()
            }
            try check(archive_write_finish_entry(archive), "cannot finish '\(name)'")
        }
        try check(archive_write_close(archive), "cannot finish the archive '\(path)'")
    }

    private static func writeData(_ archive: OpaquePointer, _ bytes: UnsafeRawBufferPointer, name: String) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let written = archive_write_data(archive, base, bytes.count)
        guard written == bytes.count else {
            throw QuireError(.unexpectedError, "cannot write the data of '\(name)': \(LibArchiveMessage.of(archive))")
        }
    }
}
