import Foundation
import Quire

/// Reads a dataset in Couchbase's test-kit layout:
///
/// ```
/// index.json                   {"name": "...", "collections": ["_default", "inventory.hotel", ...]}
/// _default._default.jsonl      one JSON object per line, the document ID in "_id"
/// inventory.hotel.jsonl
/// Attachments/<name>.blob      blobs, named as DatasetBlobName describes
/// ```
///
/// Documents stream one line at a time; errors name the file and the line.
public struct DatasetReader: Sendable {
    /// The dataset folder.
    public let folder: URL
    /// Its parsed `index.json`.
    public let index: DatasetIndex

    /// Opens a dataset: reads `index.json` and checks that every listed collection has its file.
    ///
    /// - Throws: `QuireError.notFound` for a missing index or collection file,
    ///   `QuireError.corruptData` for a malformed index.
    public init(folder: URL) throws {
        self.folder = folder
        index = try DatasetIndex.read(from: folder.appendingPathComponent(DatasetIndex.fileName))
        for collection in index.fullCollectionNames {
            let url = Self.documentsURL(in: folder, collection: collection)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw QuireError(.notFound, "dataset '\(index.name)' lists '\(collection)' but '\(url.path)' does not exist")
            }
        }
    }

    /// The `.jsonl` file of a collection given by full name.
    public static func documentsURL(in folder: URL, collection fullName: String) -> URL {
        folder.appendingPathComponent("\(fullName).jsonl")
    }

    /// Calls `body` with each document of `collection` (full name, or `_default`), in file order.
    ///
    /// Blank lines are skipped. Each line must be a JSON object with a non-empty string `_id`,
    /// unique within the collection.
    ///
    /// - Throws: `QuireError.corruptData` naming the file and line; `.invalidParameter` for a
    ///   collection the index does not list; whatever `body` throws.
    public func forEachDocument(in collection: String, _ body: (DatasetDocument) throws -> Void) throws {
        try documentReader(for: collection).forEachDocument { document, _ in try body(document) }
    }

    /// The line reader of a listed collection, with IDs taken from `idField`.
    func documentReader(
        for collection: String, idField: String = JSONLinesDocumentReader.defaultIDField
    ) throws -> JSONLinesDocumentReader {
        let fullName = DatasetIndex.fullName(of: collection)
        guard index.fullCollectionNames.contains(fullName) else {
            throw QuireError(.invalidParameter, "dataset '\(index.name)' has no collection '\(collection)'")
        }
        return JSONLinesDocumentReader(url: Self.documentsURL(in: folder, collection: fullName), idField: idField)
    }

    /// The file holding blob `digest`.
    ///
    /// - Throws: `QuireError.invalidParameter` for a malformed digest, `.notFound` when absent.
    public func blobURL(forDigest digest: String) throws -> URL {
        let attachments = folder.appendingPathComponent(DatasetBlobName.folderName)
        for name in try DatasetBlobName.candidateFileNames(forDigest: digest) {
            let url = attachments.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        throw QuireError(.notFound, "dataset '\(index.name)' has no blob file for '\(digest)' in \(DatasetBlobName.folderName)/")
    }

    /// The digests of every blob file in `Attachments/`, sorted (empty when there is no folder).
    ///
    /// - Throws: `QuireError.corruptData` for a file whose name is not a blob file name.
    public func blobDigests() throws -> [String] {
        let attachments = folder.appendingPathComponent(DatasetBlobName.folderName)
        guard FileManager.default.fileExists(atPath: attachments.path) else { return [] }
        let names = try FileManager.default.contentsOfDirectory(atPath: attachments.path)
        return try names.filter { !$0.hasPrefix(".") }.map { name in
            guard let digest = DatasetBlobName.digest(forFileName: name) else {
                throw QuireError(.corruptData, "'\(DatasetBlobName.folderName)/\(name)' is not named '<base64 sha1>.blob'")
            }
            return digest
        }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Checks that the blob file for `digest` hashes to it, streaming; returns its length.
    ///
    /// - Throws: `QuireError.corruptData` when the content does not match the digest.
    @discardableResult
    public func verifyBlob(digest: String) throws -> Int64 {
        let url = try blobURL(forDigest: digest)
        var hasher = SHA1()
        let length = try PosixFile.stream(url.path) { hasher.update($0) }
        let actual = "sha1-" + Digest.base64(hasher.finalize())
        guard actual == digest else {
            throw QuireError(.corruptData, "blob file '\(url.lastPathComponent)' hashes to '\(actual)', not '\(digest)'")
        }
        return length
    }
}
