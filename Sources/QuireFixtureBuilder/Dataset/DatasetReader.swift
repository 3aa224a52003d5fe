import Foundation
import Quire
import QuireFixtures

/// Reads a dataset in Couchbase's test-kit layout, as `couchbase-lite-tests` writes it
/// (`dataset/server/dbs/js/`):
///
/// ```
/// index.json                   {"name": "...", "collections": ["_default", "lists", "travel.hotels", ...]}
/// _default.jsonl               one JSON object per line, the document ID in "_id"
/// lists.jsonl                  a collection of the default scope, named as listed
/// travel.hotels.jsonl
/// Attachments/<name>.blob      blobs, named as DatasetBlobName describes
/// ```
///
/// Each collection's file is named exactly as its `index.json` entry. Datasets written by
/// earlier versions of this package named the default collection's file by its full name
/// (`_default._default.jsonl`); that name is read too when the first is absent.
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
        for listed in index.collections where Self.existingDocumentsURL(in: folder, listed: listed) == nil {
            let url = Self.documentsURL(in: folder, listed: listed)
            throw QuireError(.notFound, "dataset '\(index.name)' lists '\(listed)' but '\(url.path)' does not exist")
        }
    }

    /// The `.jsonl` file of a collection as Couchbase names it: its `index.json` entry
    /// (`_default.jsonl`, `lists.jsonl`, `travel.hotels.jsonl`).
    public static func documentsURL(in folder: URL, listed: String) -> URL {
        folder.appendingPathComponent("\(listed).jsonl")
    }

    /// The file of a listed collection that exists: named as listed, or else by the full
    /// name (the layout earlier versions wrote); nil when neither exists.
    static func existingDocumentsURL(in folder: URL, listed: String) -> URL? {
        var names = [listed]
        let full = DatasetIndex.fullName(of: listed)
        if full != listed { names.append(full) }
        return names.lazy.map { folder.appendingPathComponent("\($0).jsonl") }.first {
            FileManager.default.fileExists(atPath: $0.path)
        }
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
        guard let listed = index.listedEntry(for: collection),
            let url = Self.existingDocumentsURL(in: folder, listed: listed)
        else {
            throw QuireError(.invalidParameter, "dataset '\(index.name)' has no collection '\(collection)'")
        }
        return JSONLinesDocumentReader(url: url, idField: idField)
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
        throw QuireError(
            .notFound, "dataset '\(index.name)' has no blob file for '\(digest)' in \(DatasetBlobName.folderName)/")
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
                throw QuireError(
                    .corruptData, "'\(DatasetBlobName.folderName)/\(name)' is not named '<base64 sha1>.blob'")
            }
            return digest
        }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Checks that the blob file for `digest` hashes to it, streaming; returns its length.
    ///
    /// - Throws: `QuireError.corruptData` when the content does not match the digest, naming
    ///   a Git LFS pointer as such (a clone of Couchbase's test-kit repository without its LFS
    ///   objects has 131-byte pointer files in `Attachments/`).
    @discardableResult
    public func verifyBlob(digest: String) throws -> Int64 {
        let url = try blobURL(forDigest: digest)
        var hasher = SHA1()
        var head: [UInt8] = []
        let length = try PosixFile.stream(url.path) { chunk in
            if head.count < Self.lfsPointerPrefix.count {
                head.append(contentsOf: chunk.prefix(Self.lfsPointerPrefix.count - head.count))
            }
            hasher.update(chunk)
        }
        let actual = "sha1-" + DigestText.base64(hasher.finalize())
        guard actual == digest else {
            if head.elementsEqual(Self.lfsPointerPrefix), length <= Self.lfsPointerMaximumLength {
                throw QuireError(
                    .corruptData,
                    "blob file '\(url.lastPathComponent)' (for '\(digest)') is a Git LFS pointer, not the blob; "
                        + "fetch the LFS objects (git lfs pull) and build again")
            }
            throw QuireError(
                .corruptData, "blob file '\(url.lastPathComponent)' hashes to '\(actual)', not '\(digest)'")
        }
        return length
    }

    /// How every Git LFS pointer file begins (the LFS specification's first line).
    static let lfsPointerPrefix = Array("version https://git-lfs".utf8)
    /// Pointer files are small text files; the specification limits them to 1024 bytes.
    static let lfsPointerMaximumLength: Int64 = 1024
}
