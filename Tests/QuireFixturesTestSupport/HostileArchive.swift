import CArchive
import Foundation

/// Builds deliberately bad archives with libarchive's writers, for the refusal tests.
package enum HostileArchive {
    package enum Kind {
        case file(Data)
        case zeros(Int)
        case directory
        case symlink(String)
        case hardlink(String)
        case characterDevice
        case fifo
    }

    package struct Entry {
        package var name: String
        package var kind: Kind

        package init(name: String, kind: Kind) {
            self.name = name
            self.kind = kind
        }
    }

    package enum Format {
        case zip
        case tar
    }

    /// Writes `entries` as given (no sorting, no checks) in `format` (caller holds archiveLock).
    package static func write(_ entries: [Entry], format: Format, to url: URL) throws {
        guard let archive = archive_write_new() else { throw CocoaError(.fileWriteUnknown) }
        defer { archive_write_free(archive) }
        switch format {
        case .zip: archive_write_set_format_zip(archive)
        case .tar: archive_write_set_format_pax_restricted(archive)
        }
        archive_write_set_bytes_in_last_block(archive, 1)
        guard archive_write_open_filename(archive, url.path) == ARCHIVE_OK else { throw failure(archive) }
        let zeros = [UInt8](repeating: 0, count: 1 << 16)
        for item in entries {
            guard let entry = archive_entry_new() else { throw CocoaError(.fileWriteUnknown) }
            defer { archive_entry_free(entry) }
            archive_entry_set_pathname(entry, item.name)
            archive_entry_set_perm(entry, 0o644)
            switch item.kind {
            case .file(let data):
                archive_entry_set_filetype(entry, 0o100000)
                archive_entry_set_size(entry, Int64(data.count))
            case .zeros(let count):
                archive_entry_set_filetype(entry, 0o100000)
                archive_entry_set_size(entry, Int64(count))
            case .directory:
                archive_entry_set_filetype(entry, 0o040000)
            case .symlink(let target):
                archive_entry_set_filetype(entry, 0o120000)
                archive_entry_set_symlink(entry, target)
            case .hardlink(let target):
                archive_entry_set_filetype(entry, 0o100000)
                archive_entry_set_hardlink(entry, target)
                archive_entry_set_size(entry, 0)
            case .characterDevice:
                archive_entry_set_filetype(entry, 0o020000)
                archive_entry_set_rdev(entry, makedevice(1, 3))
            case .fifo:
                archive_entry_set_filetype(entry, 0o010000)
            }
            guard archive_write_header(archive, entry) == ARCHIVE_OK else { throw failure(archive) }
            switch item.kind {
            case .file(let data):
                _ = data.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
            case .zeros(var remaining):
                while remaining > 0 {
                    let chunk = min(remaining, zeros.count)
                    _ = zeros.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, chunk) }
                    remaining -= chunk
                }
            default:
                break
            }
        }
        guard archive_write_close(archive) == ARCHIVE_OK else { throw failure(archive) }
    }

    private static func failure(_ archive: OpaquePointer) -> Error {
        let text = archive_error_string(archive).map { String(cString: $0) } ?? "libarchive error"
        return NSError(domain: "HostileArchive", code: 1, userInfo: [NSLocalizedDescriptionKey: text])
    }

    private static func makedevice(_ major: UInt32, _ minor: UInt32) -> dev_t {
        dev_t(major) << 8 | dev_t(minor)
    }
}
