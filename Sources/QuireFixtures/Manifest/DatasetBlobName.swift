import Foundation
import Quire

/// How a blob digest maps to a file name in a dataset's `Attachments/` folder.
///
/// Digests are `sha1-` plus the standard base64 of the SHA-1 (28 characters, `=`-padded),
/// whose `/` cannot appear in a file name. The file name is the base64 part in the URL-safe
/// alphabet of RFC 4648 §5 (`+` becomes `-`, `/` becomes `_`, padding kept) plus `.blob`:
/// `sha1-qZk+NkcGgWq6PiVxeFDCbJzQ2J0=` is stored as `qZk-NkcGgWq6PiVxeFDCbJzQ2J0=.blob`.
/// Readers also accept the form where only `/` is replaced (`+` kept), which other tools write.
public enum DatasetBlobName {
    /// The folder holding blobs inside a dataset.
    public static let folderName = "Attachments"
    /// The file extension of blob files.
    public static let fileExtension = "blob"

    /// The digest of `bytes`: `sha1-` followed by the standard base64 of their SHA-1.
    public static func digest(of bytes: some DataProtocol) -> String {
        "sha1-" + DigestText.base64(SHA1.hash(data: bytes))
    }

    /// Whether `digest` is `sha1-` followed by the base64 of 20 bytes.
    public static func isValidDigest(_ digest: String) -> Bool {
        guard digest.hasPrefix("sha1-") else { return false }
        let encoded = String(digest.dropFirst(5))
        guard encoded.utf8.count == 28, let bytes = Data(base64Encoded: encoded) else { return false }
        return bytes.count == 20
    }

    /// The file name this package writes for `digest`.
    ///
    /// - Throws: `QuireError.invalidParameter` when `digest` is not a `sha1-` digest.
    public static func fileName(forDigest digest: String) throws -> String {
        try candidateFileNames(forDigest: digest)[0]
    }

    /// The file names a dataset may use for `digest`, preferred first.
    public static func candidateFileNames(forDigest digest: String) throws -> [String] {
        guard isValidDigest(digest) else {
            throw QuireError(.invalidParameter, "'\(digest)' is not a 'sha1-<base64>' blob digest")
        }
        let encoded = digest.dropFirst(5)
        let urlSafe = encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let slashOnly = encoded.replacingOccurrences(of: "/", with: "_")
        let names = [urlSafe, slashOnly].map { "\($0).\(fileExtension)" }
        return names[0] == names[1] ? [names[0]] : names
    }

    /// The digest a blob file name stands for, or nil when the name is not a blob file name.
    public static func digest(forFileName name: String) -> String? {
        guard name.hasSuffix(".\(fileExtension)") else { return nil }
        let encoded = name.dropLast(fileExtension.count + 1)
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let digest = "sha1-\(encoded)"
        return isValidDigest(digest) ? digest : nil
    }
}
