import Foundation
import Quire

/// Reads and writes one database's blob bytes by digest.
///
/// This stands in for `Database.saveBlob(blob:)` / `getBlob(properties:)`, which are not public
/// yet: it follows the store's layout (`<database folder>/Attachments/`, or
/// `<file>-attachments` for a database opened by path; one `<base64 digest, '/'→'_',
/// '+'→'-'>.blob` file per blob, written under a temporary name and renamed). Only
/// ``AttachmentCodec`` uses it, so switching to the public calls touches one place.
struct BlobFiles: Sendable {
    /// The folder of blob files.
    let directory: URL

    /// The blob folder of `database`.
    init(database: Database) {
        let path = database.path
        directory = URL(
            fileURLWithPath: path.hasSuffix("/") ? path + "Attachments" : database.filePath + "-attachments",
            isDirectory: true)
    }

    /// `sha1-<base64>` of `data`, the digest blobs are named by.
    static func digest(of data: Data) -> String {
        "sha1-" + Digest.base64(SHA1.hash(data: data))
    }

    /// Whether the bytes for `digest` are present.
    func contains(digest: String) -> Bool {
        guard let url = fileURL(digest: digest) else { return false }
        return FileManager.default.fileExists(atPath: url.path)
    }

    /// The bytes of the blob `digest`, checked against the digest (and `length` when given).
    func read(digest: String, length: Int? = nil) throws -> Data {
        guard let url = fileURL(digest: digest) else {
            throw QuireError(.invalidParameter, "unsupported blob digest '\(digest)': expected 'sha1-<base64>'")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw QuireError(.notFound, "the bytes of blob \(digest) are not in this database")
        }
        if let length, length != data.count {
            throw QuireError(.corruptData, "blob \(digest) has \(data.count) bytes, its reference says \(length)")
        }
        guard BlobFiles.digest(of: data) == digest else {
            throw QuireError(.corruptData, "the file of blob \(digest) holds other content")
        }
        return data
    }

    /// Stores `data` unless present; returns its digest.
    @discardableResult
    func write(_ data: Data) throws -> String {
        let digest = BlobFiles.digest(of: data)
        guard let url = fileURL(digest: digest) else { return digest }
        if FileManager.default.fileExists(atPath: url.path) { return digest }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw QuireError.posix(EIO, "cannot write blob \(digest) to \(url.path): \(error.localizedDescription)")
        }
        return digest
    }

    private func fileURL(digest: String) -> URL? {
        guard digest.hasPrefix("sha1-"), digest.count > 5 else { return nil }
        let encoded = String(
            digest.dropFirst(5).map { character -> Character in
                switch character {
                case "/": return "_"
                case "+": return "-"
                default: return character
                }
            })
        // A digest is Base64: anything else could name a file outside the folder.
        guard encoded.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-=".contains($0)) }) else {
            return nil
        }
        return directory.appendingPathComponent(encoded + ".blob")
    }
}
