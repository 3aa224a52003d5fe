import Foundation

/// The content-addressed folder of blob files of one database.
///
/// A blob with digest `sha1-<base64>` lives in `<digest's base64, with '/' as '_' and '+' as
/// '-'>.blob`. Content is written to a temporary file in the same folder while it is hashed,
/// flushed, and renamed to its digest's name, so a reader never sees a partial file, and
/// content of any size passes through a fixed-size buffer. Reading checks the length and the
/// digest, also when streaming (the check completes at the end of the stream).
final class BlobStore: Sendable {
    /// The bytes moved per read or write when streaming.
    static let chunkSize = 64 * 1024
    /// The extension of blob files.
    static let fileExtension = "blob"
    /// The extension of files being written; left behind only by a crash, removed by compaction.
    static let temporaryExtension = "blobtmp"

    let directory: URL

    init(directory: URL) {
        self.directory = directory
    }

    /// The key of this folder on the ``BlobPinBoard``: the same for every `BlobStore` of it.
    var pinFolder: String {
        directory.resolvingSymlinksInPath().standardizedFileURL.path
    }

    static func digest(of data: Data) -> String {
        "sha1-" + DigestText.base64(SHA1.hash(data: data))
    }

    func fileURL(forDigest digest: String) throws -> URL {
        guard digest.hasPrefix("sha1-"), digest.count == 33,
            DigestText.bytes(fromBase64: String(digest.dropFirst(5)))?.count == 20
        else {
            throw QuireError(
                .invalidParameter, "unsupported blob digest '\(digest)': expected 'sha1-<base64 of 20 bytes>'")
        }
        let encoded = digest.dropFirst(5).map { character -> Character in
            switch character {
            case "/": return "_"
            case "+": return "-"
            default: return character
            }
        }
        return directory.appendingPathComponent(String(encoded) + "." + BlobStore.fileExtension)
    }

    /// The digest a blob file name stands for, or nil for a name that is not a blob file's.
    static func digest(forFileName name: String) -> String? {
        let suffix = "." + fileExtension
        guard name.hasSuffix(suffix) else { return nil }
        let encoded = name.dropLast(suffix.count).map { character -> Character in
            switch character {
            case "_": return "/"
            case "-": return "+"
            default: return character
            }
        }
        let base64 = String(encoded)
        guard base64.count == 28, DigestText.bytes(fromBase64: base64)?.count == 20 else { return nil }
        return "sha1-" + base64
    }

    // MARK: Writing

    /// Writes `data` unless a file with its digest exists; returns the digest.
    func write(_ data: Data) throws -> String {
        try write(data, lease: nil)
    }

    /// Writes `data` unless a file with its digest exists, pinning the digest on `lease` first;
    /// returns the digest.
    func write(_ data: Data, lease: BlobLease?) throws -> String {
        let digest = BlobStore.digest(of: data)
        let url = try fileURL(forDigest: digest)
        lease?.pin(digest)
        if BlobFile.size(atPath: url.path) == UInt64(data.count) { return digest }
        _ = try ingest(lease: lease) { file, hasher in
            try data.withUnsafeBytes { bytes in
                hasher.update(bytes)
                try file.write(bytes)
            }
            return UInt64(data.count)
        }
        return digest
    }

    /// Reads `stream` to its end into a blob file, a chunk at a time, and closes it; returns
    /// the content's digest and length. A stream that is not open yet is opened.
    func write(from stream: InputStream, lease: BlobLease?) throws -> (digest: String, length: UInt64) {
        try ingest(lease: lease) { file, hasher in
            if stream.streamStatus == .notOpen { stream.open() }
            defer { stream.close() }
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: BlobStore.chunkSize)
            defer { buffer.deallocate() }
            var length: UInt64 = 0
            while true {
                let count = stream.read(buffer, maxLength: BlobStore.chunkSize)
                if count == 0 { break }
                guard count > 0 else {
                    if let error = stream.streamError as? QuireError { throw error }
                    throw QuireError(
                        .ioError,
                        "cannot read blob content from its stream after \(length) bytes: \(stream.streamError.map { "\($0)" } ?? "the stream failed")"
                    )
                }
                let bytes = UnsafeRawBufferPointer(start: buffer, count: count)
                hasher.update(bytes)
                try file.write(bytes)
                length += UInt64(count)
            }
            return length
        }
    }

    /// Writes content through a temporary file: `fill` writes it and feeds the hasher, and
    /// returns its length; then the file is flushed, its digest pinned on `lease`, and the file
    /// renamed over any file of that digest (so a damaged one is healed, and a reader of the
    /// old one keeps reading its own bytes).
    private func ingest(
        lease: BlobLease?, _ fill: (BlobFile, inout SHA1) throws -> UInt64
    ) throws -> (digest: String, length: UInt64) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw QuireError.posix(EIO, "cannot create blob folder \(directory.path): \(error.localizedDescription)")
        }
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).\(BlobStore.temporaryExtension)").path
        BlobPinBoard.shared.beginTemporary(temporary)
        defer { BlobPinBoard.shared.endTemporary(temporary) }
        let file = try BlobFile.create(temporary)
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        var hasher = SHA1()
        let length: UInt64
        do {
            defer { file.close() }
            length = try fill(file, &hasher)
            try file.synchronize()
        }
        let digest = "sha1-" + DigestText.base64(hasher.finalize())
        let destination = try fileURL(forDigest: digest).path
        lease?.pin(digest)
        guard rename(temporary, destination) == 0 else {
            let code = errno
            throw QuireError.posix(
                code, "cannot move blob \(digest) into place at \(destination): \(String(cString: strerror(code)))")
        }
        renamed = true
        return (digest, length)
    }

    // MARK: Reading

    /// Reads the blob with `digest`, checking its length and digest.
    func read(digest: String, length: UInt64) throws -> Data {
        let url = try fileURL(forDigest: digest)
        // An empty file is not read through Foundation, which leaks a 4 KiB buffer for every
        // empty file it reads (swift-foundation in Swift 6.3; seen under LeakSanitizer).
        let data: Data
        if BlobFile.size(atPath: url.path) == 0 {
            data = Data()
        } else {
            guard let contents = FileManager.default.contents(atPath: url.path) else {
                throw QuireError(.notFound, "blob \(digest) is missing from \(directory.path)")
            }
            data = contents
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

    /// Whether the file of `digest` exists.
    func contains(digest: String) -> Bool {
        guard let url = try? fileURL(forDigest: digest) else { return false }
        return BlobFile.size(atPath: url.path) != nil
    }

    /// The size of the file of `digest`, or nil when it is missing.
    func fileSize(digest: String) -> UInt64? {
        guard let url = try? fileURL(forDigest: digest) else { return nil }
        return BlobFile.size(atPath: url.path)
    }

    /// A stream over the blob with `digest` that checks the length and digest as it goes; nil
    /// when the file is missing. It fails at the first byte past `length`, or at the end when
    /// the content is short or its digest differs.
    func stream(digest: String, length: UInt64) throws -> BlobInputStream? {
        let url = try fileURL(forDigest: digest)
        guard BlobFile.size(atPath: url.path) != nil else { return nil }
        return BlobInputStream(path: url.path, digest: digest, length: length)
    }

    /// Reads the whole file of `digest` a chunk at a time and checks it against `length` and
    /// the digest, without holding it in memory.
    func verify(digest: String, length: UInt64) throws {
        guard let stream = try stream(digest: digest, length: length) else {
            throw QuireError(.notFound, "blob \(digest) is missing from \(directory.path)")
        }
        stream.open()
        defer { stream.close() }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: BlobStore.chunkSize)
        defer { buffer.deallocate() }
        while true {
            let count = stream.read(buffer, maxLength: BlobStore.chunkSize)
            if count == 0 { return }
            if count < 0 {
                throw stream.failure ?? QuireError(.ioError, "cannot read blob \(digest)")
            }
        }
    }

    // MARK: Compaction

    /// Deletes the blob files whose digest is not in `referenced` and that no save in progress
    /// has pinned, and temporary files no write is using; returns the digests deleted.
    func removeBlobs(keeping referenced: Set<String>) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch CocoaError.fileReadNoSuchFile {
            return []
        } catch {
            throw QuireError.posix(EIO, "cannot list blob folder \(directory.path): \(error.localizedDescription)")
        }
        let board = BlobPinBoard.shared
        let folder = pinFolder
        var removed: [String] = []
        for name in names.sorted() {
            let path = directory.appendingPathComponent(name).path
            if name.hasSuffix("." + BlobStore.temporaryExtension) {
                _ = try board.removeUnlessInUse(temporary: path) { try BlobStore.remove(path) }
            } else if let digest = BlobStore.digest(forFileName: name), !referenced.contains(digest) {
                if try board.removeUnlessPinned(digest, folder: folder, { try BlobStore.remove(path) }) {
                    removed.append(digest)
                }
            }
        }
        return removed
    }

    private static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            let code = errno
            throw QuireError.posix(code, "cannot delete blob file \(path): \(String(cString: strerror(code)))")
        }
    }
}
