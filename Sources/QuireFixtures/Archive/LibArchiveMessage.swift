import CArchive

/// libarchive's last error text for a handle.
package enum LibArchiveMessage {
    package static func of(_ archive: OpaquePointer) -> String {
        guard let text = archive_error_string(archive) else { return "unknown libarchive error" }
        return String(cString: text)
    }
}
