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
    // Safe because all of its mutable state is behind `state`'s lock, and a stream source is
    // read only under `staging`, by one thread, once; InputStream, which is not Sendable, is
    // what keeps the compiler from checking that.
    /// Where the content of a blob comes from until it is stored.
    private enum Source {
        case stored
        case data(Data)
        case stream(InputStream)
        case file(URL)
    }

    /// The MIME type given when the blob was made, if any.
    public let contentType: String?
    private struct State {
        var source: Source
        var knownDigest: String?
        var knownLength: UInt64
        var store: BlobStore?
    }

    private let state: Locked<State>
    /// Held while installing or loading, so a stream is read by one thread, once.
    private let staging = Locked()

    /// A blob holding `data` in memory until its document is saved.
    public init(contentType: String, data: Data) {
        self.contentType = contentType
        state = Locked(
            State(source: .data(data), knownDigest: BlobStore.digest(of: data), knownLength: UInt64(data.count)))
    }

    /// A blob whose content is read from `contentStream` when it is saved (or when
    /// ``content`` is first asked for), a chunk at a time, and the stream closed.
    ///
    /// A stream can be read only once: until the blob is saved, ``digest`` is nil,
    /// ``length`` is 0 and ``contentStream`` is nil. Saving the blob into a second database
    /// copies the stored file.
    public init(contentType: String, contentStream: InputStream) {
        self.contentType = contentType
        state = Locked(State(source: .stream(contentStream), knownLength: 0))
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
        state = Locked(State(source: .file(fileURL), knownLength: size))
    }

    init(json: JSONObject, store: BlobStore?) {
        contentType = json["content_type"]?.stringValue
        state = Locked(
            State(
                source: .stored, knownDigest: json["digest"]?.stringValue,
                knownLength: UInt64(max(0, json["length"]?.int64Value ?? 0)), store: store))
    }

    /// The number of bytes (0 for a blob made from a stream, until it is saved).
    public var length: UInt64 { state.withLock { $0.knownLength } }

    /// `sha1-<base64 of the SHA-1 of the content>`; nil for a blob made from a stream or a
    /// file until it is saved.
    public var digest: String? { state.withLock { $0.knownDigest } }

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
        let (source, store, digest, length) = snapshot
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
        try staging.withLock {
            let (source, store, digest, length) = snapshot
            switch source {
            case .data(let data):
                return data
            case .file(let url):
                do {
                    return try Data(contentsOf: url)
                } catch {
                    throw QuireError.posix(
                        EIO, "cannot read blob content file \(url.path): \(error.localizedDescription)")
                }
            case .stream(let stream):
                let data = try Blob.readAll(stream)
                // The stream is spent: its content lives in memory from now on.
                let digest = BlobStore.digest(of: data)
                state.withLock { state in
                    state.source = .data(data)
                    state.knownLength = UInt64(data.count)
                    state.knownDigest = digest
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

    var jsonProperties: JSONObject {
        state.withLock { state in
            var properties: JSONObject = [
                "@type": "blob",
                "length": .int(Int64(state.knownLength)),
            ]
            if let knownDigest = state.knownDigest { properties["digest"] = .string(knownDigest) }
            if let contentType { properties["content_type"] = .string(contentType) }
            return properties
        }
    }

    /// The blob's ``properties`` as compact JSON text, keys sorted.
    ///
    /// Couchbase Lite raises an exception for a blob not saved yet; Quire gives the
    /// properties it knows (a blob made from a stream or a file has no digest until saved).
    public func toJSON() -> String {
        (try? JSONWriter.string(.object(jsonProperties))) ?? "{}"
    }

    /// Whether a dictionary is a blob's properties, as Couchbase Lite's `Blob.isBlob` decides:
    /// `"@type": "blob"`, a `digest` string, and, when present, a `content_type` string and a
    /// numeric `length`.
    public static func isBlob(properties: [String: Any]) -> Bool {
        guard (properties["@type"] as? String) == "blob", properties["digest"] is String else { return false }
        if let contentType = properties["content_type"], !(contentType is String) { return false }
        if let length = properties["length"] {
            guard let json = JSONValue(any: length) else { return false }
            switch json {
            case .int, .double: break
            default: return false
            }
        }
        return true
    }

    /// Whether a dictionary in a document reads as a ``Blob``, as Couchbase Lite's Fleece layer
    /// decides: `"@type": "blob"` (with or without a digest), or a legacy attachment (`digest`,
    /// `revpos`, `stub` and `length`, without `@type`).
    static func isBlob(json: JSONObject) -> Bool {
        if let type = json["@type"] { return type == .string("blob") }
        return json["digest"] != nil && json["revpos"] != nil && json["stub"] != nil && json["length"] != nil
    }

    /// The folder of the store holding the content; nil until the blob is stored.
    var storeDirectory: URL? { state.withLock { $0.store?.directory } }

    /// Writes pending content into `store` (before the document that refers to it is saved).
    func install(into store: BlobStore) throws {
        try install(into: store, lease: nil)
    }

    /// Writes pending content into `store`, or copies a blob of another database's store,
    /// pinning its digest on `lease` (when given) so compaction keeps the file until the
    /// document that refers to it is committed.
    func install(into store: BlobStore, lease: BlobLease?) throws {
        try staging.withLock {
            let (source, current, digest, length) = snapshot
            switch source {
            case .data(let data):
                let digest = try store.write(data, lease: lease)
                state.withLock { state in
                    state.knownDigest = digest
                    state.store = store
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
                state.withLock { $0.store = store }
            }
        }
    }

    private func attach(to store: BlobStore, digest: String, length: UInt64) {
        state.withLock { state in
            state.source = .stored
            state.knownDigest = digest
            state.knownLength = length
            state.store = store
        }
    }

    /// Where the content is now, in one consistent read.
    private var snapshot: (source: Source, store: BlobStore?, digest: String?, length: UInt64) {
        state.withLock { ($0.source, $0.store, $0.knownDigest, $0.knownLength) }
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
