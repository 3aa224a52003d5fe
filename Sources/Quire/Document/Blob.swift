import Foundation

/// Binary content stored beside the documents that refer to it.
///
/// In a document a blob is the object `{"@type":"blob","digest":"sha1-…","length":N,
/// "content_type":"…"}`; its bytes are kept once per database, content-addressed, under the
/// database's `Attachments/` folder, and written before the document that refers to them.
///
/// A new blob holds its content until it is saved, with a document or with
/// ``Database/saveBlob(blob:)``: in memory (``init(contentType:data:)``), or as a stream or a
/// file it reads when it is saved (``init(contentType:contentStream:)``,
/// ``init(contentType:fileURL:)``), a chunk at a time, so content of any size passes through
/// a small buffer. Blobs of stored documents read their file on demand: ``content`` loads it
/// whole, ``contentStream`` streams it; both check the length and digest.
public final class Blob: @unchecked Sendable, Equatable, CustomStringConvertible {
    /// Where the content of a blob comes from until it is stored.
    private enum Source {
        case stored
        case data(Data)
        case stream(InputStream)
        case file(URL)
    }

    /// The MIME type given when the blob was made, if any.
    public let contentType: String?
    private let lock = NSLock()
    /// Held while installing or loading, so a stream is read by one thread, once.
    private let stagingLock = NSLock()
    private var source: Source
    private var knownDigest: String?
    private var knownLength: UInt64
    private var store: BlobStore?

    /// A blob holding `data` in memory until its document is saved.
    public init(contentType: String, data: Data) {
        self.contentType = contentType
        source = .data(data)
        knownLength = UInt64(data.count)
        knownDigest = BlobStore.digest(of: data)
    }

    /// A blob whose content is read from `contentStream` when it is saved (or when
    /// ``content`` is first asked for), a chunk at a time, and the stream closed.
    ///
    /// A stream can be read only once: until the blob is saved, ``digest`` is nil,
    /// ``length`` is 0 and ``contentStream`` is nil. Saving the blob into a second database
    /// copies the stored file.
    public init(contentType: String, contentStream: InputStream) {
        self.contentType = contentType
        source = .stream(contentStream)
        knownLength = 0
    }

    /// A blob whose content is read from the file at `fileURL` when it is saved, a chunk at a
    /// time. ``length`` is the file's size now; ``digest`` is nil until it is saved.
    ///
    /// Throws invalidParameter for a URL that is not a file URL, notFound when there is no
    /// regular file there.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a URL that is not a file URL;
    ///   ``QuireError/Code/notFound`` when there is no regular file there.
    public init(contentType: String, fileURL: URL) throws {
        guard fileURL.isFileURL else {
            throw QuireError(.invalidParameter, "blob content URL \(fileURL) is not a file URL")
        }
        guard let size = BlobFile.size(atPath: fileURL.path) else {
            throw QuireError(.notFound, "blob content file \(fileURL.path) does not exist or is not a regular file")
        }
        self.contentType = contentType
        source = .file(fileURL)
        knownLength = size
    }

    init(json: [String: JSONValue], store: BlobStore?) {
        contentType = json["content_type"]?.stringValue
        knownDigest = json["digest"]?.stringValue
        knownLength = UInt64(max(0, json["length"]?.int64Value ?? 0))
        source = .stored
        self.store = store
    }

    /// The number of bytes (0 for a blob made from a stream, until it is saved).
    public var length: UInt64 { lock.withLock { knownLength } }

    /// `sha1-<base64 of the SHA-1 of the content>`; nil for a blob made from a stream or a
    /// file until it is saved.
    public var digest: String? { lock.withLock { knownDigest } }

    /// The whole content, in memory: the data of a new blob, a stream or file read to the end,
    /// or the stored file (checked against the length and digest); nil when it cannot be read.
    /// Prefer ``contentStream`` for large blobs.
    public var content: Data? {
        try? readContent()
    }

    /// A new, unopened stream over the content: over the data of a new blob, the file of one
    /// made from a file, or the stored file; nil for a blob made from a stream and not saved
    /// yet, or when the stored file is missing.
    ///
    /// A stream over a stored file checks the content as it goes: it fails with a
    /// corruptData `streamError` past the expected length, or at the end when the content is
    /// short or its digest differs.
    public var contentStream: InputStream? {
        let (source, store, digest, length) = lock.withLock { (self.source, self.store, knownDigest, knownLength) }
        switch source {
        case .data(let data): return InputStream(data: data)
        case .file(let url): return InputStream(url: url)
        case .stream: return nil
        case .stored:
            guard let store, let digest else { return nil }
            return try? store.stream(digest: digest, length: length)
        }
    }

    /// The content, or the reason it cannot be read (missing file, length or digest mismatch).
    ///
    /// - Throws: ``QuireError/Code/notFound`` when the stored file is missing;
    ///   ``QuireError/Code/corruptData`` when its length or digest does not match; a POSIX error
    ///   when a file cannot be read.
    public func readContent() throws -> Data {
        try stagingLock.withLock {
            let (source, store, digest, length) = lock.withLock { (self.source, self.store, knownDigest, knownLength) }
            switch source {
            case .data(let data):
                return data
            case .file(let url):
                do {
                    return try Data(contentsOf: url)
                } catch {
                    throw QuireError.posix(EIO, "cannot read blob content file \(url.path): \(error.localizedDescription)")
                }
            case .stream(let stream):
                let data = try Blob.readAll(stream)
                // The stream is spent: its content lives in memory from now on.
                lock.withLock {
                    self.source = .data(data)
                    knownLength = UInt64(data.count)
                    knownDigest = BlobStore.digest(of: data)
                }
                return data
            case .stored:
                guard let store, let digest else {
                    throw QuireError(.notFound, "blob \(digest ?? "without digest") is not attached to a database")
                }
                return try store.read(digest: digest, length: length)
            }
        }
    }

    /// The dictionary stored in documents for this blob.
    public var properties: [String: Any] {
        jsonProperties.mapValues(\.plainValue)
    }

    var jsonProperties: [String: JSONValue] {
        lock.withLock {
            var properties: [String: JSONValue] = [
                "@type": "blob",
                "length": .int(Int64(knownLength)),
            ]
            if let knownDigest { properties["digest"] = .string(knownDigest) }
            if let contentType { properties["content_type"] = .string(contentType) }
            return properties
        }
    }

    /// Whether a dictionary is a blob reference (`"@type": "blob"` with a digest).
    public static func isBlob(properties: [String: Any]) -> Bool {
        (properties["@type"] as? String) == "blob" && properties["digest"] is String
    }

    static func isBlob(json: [String: JSONValue]) -> Bool {
        json["@type"] == .string("blob") && json["digest"]?.stringValue != nil
    }

    /// Writes pending content into `store` (before the document that refers to it is saved).
    func install(into store: BlobStore) throws {
        try install(into: store, lease: nil)
    }

    /// Writes pending content into `store`, or copies a blob of another database's store,
    /// pinning its digest on `lease` (when given) so compaction keeps the file until the
    /// document that refers to it is committed.
    func install(into store: BlobStore, lease: BlobLease?) throws {
        try stagingLock.withLock {
            let (source, current, digest, length) = lock.withLock { (self.source, self.store, knownDigest, knownLength) }
            switch source {
            case .data(let data):
                let digest = try store.write(data, lease: lease)
                lock.withLock {
                    knownDigest = digest
                    self.store = store
                }
            case .stream(let stream):
                let (digest, length) = try store.write(from: stream, lease: lease)
                attach(to: store, digest: digest, length: length)
            case .file(let url):
                guard let stream = InputStream(url: url) else {
                    throw QuireError(.notFound, "cannot open blob content file \(url.path)")
                }
                let (digest, length) = try store.write(from: stream, lease: lease)
                attach(to: store, digest: digest, length: length)
            case .stored:
                guard let digest else {
                    throw QuireError(.invalidParameter, "a blob without a digest cannot be saved")
                }
                if let current, current.directory.standardizedFileURL != store.directory.standardizedFileURL {
                    // A blob of another database: its bytes move by stream, checked on the way.
                    guard let input = try current.stream(digest: digest, length: length) else {
                        throw QuireError(.notFound, "blob \(digest) is missing from \(current.directory.path)")
                    }
                    _ = try store.write(from: input, lease: lease)
                } else {
                    lease?.pin(digest)
                }
                lock.withLock { self.store = store }
            }
        }
    }

    private func attach(to store: BlobStore, digest: String, length: UInt64) {
        lock.withLock {
            source = .stored
            knownDigest = digest
            knownLength = length
            self.store = store
        }
    }

    private static func readAll(_ stream: InputStream) throws -> Data {
        if stream.streamStatus == .notOpen { stream.open() }
        defer { stream.close() }
        var data = Data()
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: BlobStore.chunkSize)
        defer { buffer.deallocate() }
        while true {
            let count = stream.read(buffer, maxLength: BlobStore.chunkSize)
            if count == 0 { return data }
            guard count > 0 else {
                throw QuireError(
                    .ioError,
                    "cannot read blob content from its stream after \(data.count) bytes: \(stream.streamError.map { "\($0)" } ?? "the stream failed")"
                )
            }
            data.append(buffer, count: count)
        }
    }

    /// Equal when both have a digest and the digests are equal (a blob not saved yet whose
    /// digest is unknown equals only itself).
    public static func == (lhs: Blob, rhs: Blob) -> Bool {
        if lhs === rhs { return true }
        guard let left = lhs.digest, let right = rhs.digest else { return false }
        return left == right
    }

    /// The blob's properties as text.
    public var description: String {
        "Blob(\(contentType ?? "?"), \(length) bytes, \(digest ?? "no digest"))"
    }
}
