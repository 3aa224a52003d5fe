import Foundation

/// The content-addressed folder of blob files of one database.
///
/// A blob with digest `sha1-<base64>` lives in `<digest's base64, with '/' as '_' and '+' as
/// '-'>.blob`. Files are written to a temporary name and renamed, so a reader never sees a
/// partial file, and writing content that is already there is free.
final class BlobStore: Sendable {
    let directory: URL

    init(directory: URL) {
        self.directory = directory
    }

    static func digest(of data: Data) -> String {
        "sha1-" + Digest.base64(SHA1.hash(data: data))
    }

    func fileURL(forDigest digest: String) throws -> URL {
        guard digest.hasPrefix("sha1-"), digest.count > 5 else {
            throw QuireError(.invalidParameter, "unsupported blob digest '\(digest)': expected 'sha1-<base64>'")
        }
        let encoded = digest.dropFirst(5).map { character -> Character in
            switch character {
            case "/": return "_"
            case "+": return "-"
            default: return character
            }
        }
        return directory.appendingPathComponent(String(encoded) + ".blob")
    }

    /// Writes `data` unless a file with its digest exists; returns the digest.
    func write(_ data: Data) throws -> String {
        let digest = BlobStore.digest(of: data)
        let url = try fileURL(forDigest: digest)
        if FileManager.default.fileExists(atPath: url.path) { return digest }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw QuireError.posix(EIO, "cannot write blob \(digest) to \(url.path): \(error.localizedDescription)")
        }
        return digest
    }

    /// Reads the blob with `digest`, checking its length and digest.
    func read(digest: String, length: UInt64) throws -> Data {
        let url = try fileURL(forDigest: digest)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw QuireError(.notFound, "blob \(digest) is missing from \(directory.path)")
        }
        guard UInt64(data.count) == length else {
            throw QuireError(
                .corruptData, "blob \(digest) has \(data.count) bytes on disk, its document says \(length)")
        }
        let actual = BlobStore.digest(of: data)
        guard actual == digest else {
            throw QuireError(.corruptData, "blob file for \(digest) holds content with digest \(actual)")
        }
        return data
    }
}
