import CArchive
import Foundation
import Quire

/// What libarchive says about one entry, before any of Quire's rules are applied.
struct RawArchiveEntry {
    var name: String
    var fileType: UInt32
    var hardlinkTarget: String?
    var symlinkTarget: String?
    var declaredSize: Int64?
    var isEncrypted: Bool
}

/// A libarchive read handle over one file, limited to the formats a fixture can come in.
///
/// Zip is read only through its central directory (libarchive's seekable reader): the
/// streaming reader trusts local headers, which a crafted archive can make disagree with the
/// directory, so the same zip could list differently here and in other tools.
final class LibArchiveReader {
    let path: String
    private let archive: OpaquePointer

    init(path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw QuireError.posix(errno, "cannot read archive '\(path)'") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw QuireError(.invalidParameter, "archive '\(path)' is not a regular file")
        }
        guard let handle = archive_read_new() else {
            throw QuireError(.memoryError, "libarchive could not allocate a reader")
        }
        archive = handle
        self.path = path
        archive_read_support_filter_gzip(handle)
        archive_read_support_filter_bzip2(handle)
        archive_read_support_filter_xz(handle)
        archive_read_support_filter_zstd(handle)
        archive_read_support_format_zip_seekable(handle)
        archive_read_support_format_tar(handle)
        archive_read_support_format_7zip(handle)
        guard archive_read_open_filename(handle, path, 65_536) == ARCHIVE_OK else {
            throw unreadable()
        }
    }

    deinit {
        archive_read_free(archive)
    }

    /// The next entry's header, or nil after the last one.
    func nextEntry() throws -> RawArchiveEntry? {
        var entryPointer: OpaquePointer?
        let status = archive_read_next_header(archive, &entryPointer)
        if status == ARCHIVE_EOF { return nil }
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry = entryPointer else { throw unreadable() }
        let name: String
        if let utf8 = archive_entry_pathname_utf8(entry) {
            name = String(cString: utf8)
        } else if let raw = archive_entry_pathname(entry) {
            guard let decoded = String(validatingCString: raw) else {
                throw QuireError(.corruptData, "archive '\(path)' has an entry whose name is not valid UTF-8")
            }
            name = decoded
        } else {
            name = ""
        }
        return RawArchiveEntry(
            name: name,
            fileType: UInt32(archive_entry_filetype(entry)),
            hardlinkTarget: archive_entry_hardlink(entry).map { String(cString: $0) },
            symlinkTarget: archive_entry_symlink(entry).map { String(cString: $0) },
            declaredSize: archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil,
            isEncrypted: archive_entry_is_encrypted(entry) != 0)
    }

    /// Reads the current entry's data; 0 means the entry is done.
    func readData(into buffer: UnsafeMutableRawBufferPointer, entry: String) throws -> Int {
        let count = archive_read_data(archive, buffer.baseAddress, buffer.count)
        guard count >= 0 else {
            throw QuireError(
                .corruptData, "archive '\(path)' is damaged at entry '\(entry)': \(LibArchiveMessage.of(archive))")
        }
        return count
    }

    /// Compressed bytes consumed from the file so far.
    var compressedBytesConsumed: Int64 {
        archive_filter_bytes(archive, -1)
    }

    private func unreadable() -> QuireError {
        QuireError(.corruptData, "'\(path)' is not a readable archive: \(LibArchiveMessage.of(archive))")
    }
}
