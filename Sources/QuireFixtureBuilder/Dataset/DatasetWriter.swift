import Foundation
import Quire
import QuireFixtures

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a dataset folder in the test-kit layout that ``DatasetReader`` reads: one `.jsonl`
/// file per collection (canonical JSON, the ID in `_id`), `Attachments/` with the blobs, and
/// `index.json` last. `quire fixture generate` and `quire db export` both write through it.
///
/// ```swift
/// let writer = try DatasetWriter(folder: output)
/// try writer.beginCollection("inventory.hotel")
/// try writer.addDocument(.object(["_id": .string("h1"), "name": .string("Inn")]))
/// try writer.finish(name: "travel")
/// ```
package final class DatasetWriter {
    /// The dataset folder.
    package let folder: URL
    private var listed: [String] = []
    private var current: BufferedFileWriter?
    /// The digests of the blobs written.
    package private(set) var blobs: Set<String> = []
    /// Documents written, in every collection.
    package private(set) var documents = 0

    /// Creates `folder`, or checks that it is an empty folder.
    ///
    /// - Throws: `QuireError.invalidParameter` when it is a file or holds anything;
    ///   `.cantOpenFile` when it cannot be created.
    package init(folder: URL) throws {
        self.folder = folder
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw QuireError(.invalidParameter, "output '\(folder.path)' exists and is not a folder")
            }
            guard try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty else {
                throw QuireError(.invalidParameter, "output folder '\(folder.path)' is not empty")
            }
        } else {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw QuireError(
                    .cantOpenFile, "cannot create output folder '\(folder.path)': \(error.localizedDescription)")
            }
        }
    }

    /// Ends the collection being written and starts the file of the one listed as `listed`
    /// (`_default`, `lists`, `inventory.hotel`), named as Couchbase names it.
    package func beginCollection(_ listed: String) throws {
        try current?.close()
        current = try BufferedFileWriter(path: DatasetReader.documentsURL(in: folder, listed: listed).path)
        self.listed.append(listed)
    }

    /// Writes `document`, a JSON object with its ID in `_id`, as the next line of the
    /// collection being written.
    package func addDocument(_ document: JSONValue) throws {
        guard let current else {
            throw QuireError(.invalidParameter, "a dataset document needs a collection to go into")
        }
        try current.append(try JSONWriter.bytes(document) + [0x0a])
        documents += 1
    }

    /// Writes the blob `digest` once, its content from `content`, which hands each chunk to
    /// the function it is given; a blob written already is passed over.
    package func addBlob(
        digest: String, _ content: (_ write: ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        guard !blobs.contains(digest) else { return }
        let attachments = folder.appendingPathComponent(DatasetBlobName.folderName)
        if blobs.isEmpty, !FileManager.default.fileExists(atPath: attachments.path) {
            // 0755 whatever the umask, so a generated dataset is the same everywhere.
            guard mkdir(attachments.path, 0o755) == 0, chmod(attachments.path, 0o755) == 0 else {
                throw QuireError.posix(errno, "cannot create '\(attachments.path)'")
            }
        }
        let writer = try BufferedFileWriter(
            path: attachments.appendingPathComponent(try DatasetBlobName.fileName(forDigest: digest)).path)
        try content { try writer.append($0) }
        try writer.close()
        blobs.insert(digest)
    }

    /// Writes the live documents of `collection`, in ID order, as the collection listed as
    /// `listed`, with the blobs they refer to; `added` hears of each document written.
    ///
    /// - Throws: `QuireError.notFound` for a blob a document refers to and the database does
    ///   not hold; what reading or writing throws.
    package func addCollection(
        _ collection: Quire.Collection, listedAs listed: String, added: () -> Void = {}
    ) throws {
        try beginCollection(listed)
        try Self.forEachDocument(in: collection) { document in
            try addDocument(document)
            for reference in try DatasetBlobReference.all(in: document) where !blobs.contains(reference.digest) {
                try addBlob(reference, from: collection.database)
            }
            added()
        }
    }

    /// Calls `body` with each live document of `collection` in ID order, as a JSON object with
    /// its ID in `_id`; reads a page of IDs at a time, so a collection of any size streams.
    package static func forEachDocument(in collection: Quire.Collection, _ body: (JSONValue) throws -> Void) throws {
        let pageSize = 500
        var after: String?
        while true {
            let page = try collection.liveDocuments(from: after, skip: after == nil ? 0 : 1, limit: pageSize)
            for listing in page {
                // A document deleted since the page was read is passed over.
                guard let document = try collection.document(id: listing.id) else { continue }
                guard case .object(var members) = try JSONReader.parse(document.toJSON()) else {
                    throw QuireError(.corruptData, "the body of document '\(document.id)' is not a JSON object")
                }
                members["_id"] = .string(listing.id)
                try body(.object(members))
            }
            guard page.count == pageSize else { return }
            after = page.last?.id
        }
    }

    /// Copies the content of the blob `reference` names out of `database`, streaming.
    private func addBlob(_ reference: DatasetBlobReference, from database: Database) throws {
        var properties: [String: Any] = ["@type": "blob", "digest": reference.digest]
        if let length = reference.length { properties["length"] = length }
        if let contentType = reference.contentType { properties["content_type"] = contentType }
        guard let blob = try database.getBlob(properties: properties), let stream = blob.contentStream else {
            throw QuireError(
                .notFound,
                "a document refers to blob \(reference.digest), which the database does not hold (run quire db check)")
        }
        stream.open()
        defer { stream.close() }
        try addBlob(digest: reference.digest) { write in
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = stream.read(&chunk, maxLength: chunk.count)
                if count < 0 {
                    throw QuireError(
                        .ioError,
                        "cannot read blob \(reference.digest): \(stream.streamError?.localizedDescription ?? "read failed")"
                    )
                }
                if count == 0 { break }
                try write(Array(chunk[..<count]))
            }
        }
    }

    /// Ends the last collection and writes `index.json`, naming the dataset `name` and listing
    /// the collections in the order written.
    ///
    /// - Returns: the index written.
    @discardableResult
    package func finish(name: String) throws -> DatasetIndex {
        try current?.close()
        current = nil
        let index = DatasetIndex(name: name, collections: listed)
        let json = JSONValue.object([
            "name": .string(index.name), "collections": .array(index.collections.map(JSONValue.string)),
        ])
        let writer = try BufferedFileWriter(path: folder.appendingPathComponent(DatasetIndex.fileName).path)
        try writer.append(try JSONWriter.bytes(json) + [0x0a])
        try writer.close()
        return index
    }
}
