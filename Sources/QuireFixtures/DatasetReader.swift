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
        let fullName = DatasetIndex.fullName(of: collection)
        guard index.fullCollectionNames.contains(fullName) else {
            throw QuireError(.invalidParameter, "dataset '\(index.name)' has no collection '\(collection)'")
        }
        let url = Self.documentsURL(in: folder, collection: fullName)
        let reader = try JSONLinesReader(path: url.path)
        var firstLineByID: [String: Int] = [:]
        while let line = try reader.nextLine() {
            let number = reader.lineNumber
            func refuse(_ problem: String) -> QuireError {
                QuireError(.corruptData, "line \(number) of '\(url.lastPathComponent)' \(problem)")
            }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let parsed: Any
            do {
                parsed = try JSONSerialization.jsonObject(with: Data(line), options: [])
            } catch {
                throw refuse("is not valid JSON")
            }
            guard var properties = parsed as? [String: Any] else { throw refuse("is not a JSON object") }
            guard let id = properties.removeValue(forKey: "_id") as? String, !id.isEmpty else {
                throw refuse("has no string \"_id\"")
            }
            if let first = firstLineByID[id] { throw refuse("repeats _id '\(id)' (first on line \(first))") }
            firstLineByID[id] = number
            let references: [DatasetBlobReference]
            do {
                references = try Self.blobReferences(in: properties)
            } catch let error as QuireError {
                throw refuse("document '\(id)': \(error.message)")
            }
            try body(DatasetDocument(id: id, line: number, properties: properties, blobReferences: references))
        }
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
        let file = try PosixFile.openForReading(url.path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var hasher = FixtureSHA1()
        var length: Int64 = 0
        while true {
            let count = try file.read(into: buffer)
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            length += Int64(count)
        }
        let actual = "sha1-" + Data(hasher.finalize()).base64EncodedString()
        guard actual == digest else {
            throw QuireError(.corruptData, "blob file '\(url.lastPathComponent)' hashes to '\(actual)', not '\(digest)'")
        }
        return length
    }

    /// Every `{"@type": "blob", "digest": ...}` object inside `value`, depth first.
    static func blobReferences(in value: Any) throws -> [DatasetBlobReference] {
        var found: [DatasetBlobReference] = []
        func visit(_ value: Any) throws {
            if let dictionary = value as? [String: Any] {
                if dictionary["@type"] as? String == "blob" {
                    guard let digest = dictionary["digest"] as? String, DatasetBlobName.isValidDigest(digest) else {
                        throw QuireError(.corruptData, "has a blob without a valid 'sha1-' digest")
                    }
                    let length = (dictionary["length"] as? NSNumber).map { $0.int64Value }
                    found.append(
                        DatasetBlobReference(digest: digest, length: length, contentType: dictionary["content_type"] as? String))
                    return
                }
                for key in dictionary.keys.sorted() {
                    if let child = dictionary[key] { try visit(child) }
                }
            } else if let array = value as? [Any] {
                for child in array { try visit(child) }
            }
        }
        try visit(value)
        return found
    }
}
