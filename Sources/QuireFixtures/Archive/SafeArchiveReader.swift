import Foundation
import Quire

/// Reads untrusted archives (zip, tar with gzip/bzip2/xz/zstd, 7-Zip) without letting them
/// write anywhere they should not or expand without bound.
///
/// Every entry must be a regular file or a folder with a relative name free of `..`; links,
/// devices, FIFOs, sockets, encrypted entries and duplicate names (also after normalising
/// `a/./b`, case and Unicode form) are refused, as is anything outside ``allowedRoots`` when
/// set, or beyond ``limits``. All of it is checked on every header before anything is written,
/// and the bytes are counted again while extracting. Errors are `QuireError` with code
/// `corruptData` naming the entry and the rule.
public struct SafeArchiveReader: Sendable {
    /// The archive file.
    public let archiveURL: URL
    /// Size, ratio and count limits.
    public var limits: ArchiveLimits
    /// When not empty, every entry must be one of these relative paths or inside one of them
    /// (for a fixture: `manifest.json` and `<name>.quire`).
    public var allowedRoots: [String]

    /// When set, every entry must be this folder or inside it (a relative path such as
    /// `db.cblite2`): ``allowedRoots`` holding one path.
    public var requiredRoot: String? {
        get { allowedRoots.count == 1 ? allowedRoots[0] : nil }
        set { allowedRoots = newValue.map { [$0] } ?? [] }
    }

    /// Makes a reader; nothing is opened until a method is called.
    public init(archiveURL: URL, limits: ArchiveLimits = .default, requiredRoot: String? = nil) {
        self.init(archiveURL: archiveURL, limits: limits, allowedRoots: requiredRoot.map { [$0] } ?? [])
    }

    /// Makes a reader that admits only `allowedRoots` and what lies inside them (any path
    /// when empty); nothing is opened until a method is called.
    public init(archiveURL: URL, limits: ArchiveLimits = .default, allowedRoots: [String]) {
        self.archiveURL = archiveURL
        self.limits = limits
        self.allowedRoots = allowedRoots
    }

    /// Reads every header and applies every rule, writing nothing and reading no data.
    ///
    /// - Returns: the entries in archive order, with declared sizes.
    public func validate() throws -> [ArchiveEntry] {
        var validator = try makeValidator()
        let reader = try LibArchiveReader(path: archiveURL.path)
        var entries: [ArchiveEntry] = []
        while let raw = try reader.nextEntry() {
            entries.append(try validator.admit(raw))
        }
        return entries
    }

    /// Reads every entry in full, applying the rules and limits, and hashes each file.
    ///
    /// - Returns: the entries in archive order; files carry their counted size and SHA-256.
    public func listing() throws -> [ArchiveEntry] {
        var entries: [ArchiveEntry] = []
        try forEachEntry { entry, read in
            var described = entry
            if entry.kind == .file {
                var hasher = SHA256()
                described.size = try read { hasher.update($0) }
                described.sha256 = DigestText.hex(hasher.finalize())
            }
            entries.append(described)
        }
        return entries
    }

    /// Reads the whole archive, applying every rule and limit to every entry and its data, and
    /// returns the bytes of the file entry at `path`, or nil when there is none. Nothing is
    /// written, so an archive can be judged (a bomb or a stray entry found) before extraction.
    public func contents(ofEntry path: String) throws -> Data? {
        let wanted = try ArchivePath.normalize(path, code: .invalidParameter)
        var found: Data?
        try forEachEntry { entry, read in
            guard entry.kind == .file else { return }
            if entry.path == wanted {
                var data = Data()
                _ = try read { data.append(contentsOf: $0) }
                found = data
            } else {
                _ = try read { _ in }
            }
        }
        return found
    }

    /// Reads every header and applies every rule to it, as ``validate()`` does, and returns the
    /// bytes of the file entry at `path` (metered against the limits), or nil when there is
    /// none. No other entry's data is read: for a zip, whose entries are found through its
    /// central directory, the rest of the archive is not even decompressed. The data rules
    /// (real sizes, the ratio and total limits) are applied to the other entries when they are
    /// extracted.
    package func validate(readingEntry path: String) throws -> Data? {
        let wanted = try ArchivePath.normalize(path, code: .invalidParameter)
        var found: Data?
        try forEachEntry { entry, read in
            guard entry.kind == .file, entry.path == wanted else { return }
            var data = Data()
            _ = try read { data.append(contentsOf: $0) }
            found = data
        }
        return found
    }

    /// Validates the archive, then extracts it into a new temporary folder next to `destination`.
    ///
    /// The folder is named after `destination` (`.<name>.extract-<UUID>`) and is in the same
    /// parent folder, so the install step can rename it into place. On any error it is removed,
    /// so nothing is left behind. Files get permissions 0644 and folders 0755, whatever the
    /// archive says.
    ///
    /// - Returns: the temporary folder holding the extracted entries.
    public func extract(nextTo destination: URL) throws -> URL {
        let scratch = try extract(
            in: destination.deletingLastPathComponent(), prefix: ".\(destination.lastPathComponent).extract-")
        scratch.close()
        return scratch.url
    }

    /// Validates the archive, then extracts it into a new folder `<prefix><UUID>` in `parent`,
    /// locked as ``OwnedScratch`` until the caller closes or removes it. On any error the
    /// folder is removed.
    package func extract(in parent: URL, prefix: String) throws -> OwnedScratch {
        try extract(in: parent, prefix: prefix, hashing: false).scratch
    }

    /// Extracts as ``extract(in:prefix:)`` does, hashing each file's bytes with SHA-256 as they
    /// are written, so a caller that checks the files against a list of digests need not read
    /// them back.
    ///
    /// - Returns: the locked folder, and each file entry by its normalised path with the
    ///   bytes counted and their SHA-256 (lowercase hex).
    package func extractHashing(in parent: URL, prefix: String) throws -> (
        scratch: OwnedScratch, files: [String: ArchiveEntry]
    ) {
        try extract(in: parent, prefix: prefix, hashing: true)
    }

    private func extract(in parent: URL, prefix: String, hashing: Bool) throws -> (
        scratch: OwnedScratch, files: [String: ArchiveEntry]
    ) {
        _ = try validate()
        let scratch = try OwnedScratch.create(.folder, in: parent, prefix: prefix)
        let folder = scratch.url
        var files: [String: ArchiveEntry] = [:]
        do {
            guard chmod(folder.path, 0o755) == 0 else {
                throw QuireError.posix(errno, "cannot set permissions of '\(folder.path)'")
            }
            var folders: Set<String> = []
            try forEachEntry { entry, read in
                let ancestors = ArchivePath.ancestors(of: entry.path) + (entry.kind == .directory ? [entry.path] : [])
                for ancestor in ancestors where !folders.contains(ancestor) {
                    let path = folder.appendingPathComponent(ancestor).path
                    guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
                        throw QuireError.posix(errno, "cannot create folder '\(path)'")
                    }
                    guard chmod(path, 0o755) == 0 else {
                        throw QuireError.posix(errno, "cannot set permissions of '\(path)'")
                    }
                    folders.insert(ancestor)
                }
                guard entry.kind == .file else { return }
                let file = try PosixFile.create(folder.appendingPathComponent(entry.path).path, permissions: 0o644)
                if hashing {
                    // The file is new (created exclusively in a folder just made) and written
                    // only here, so the digest of these bytes is the digest of the file.
                    var described = entry
                    if (entry.size ?? 0) >= PipelinedFileSink.worthwhileSize {
                        // A large file (the database) is written and hashed on a second
                        // thread while this one decompresses.
                        let sink = PipelinedFileSink(file: file)
                        defer { sink.stop() }
                        described.size = try read { bytes in try sink.write(bytes) }
                        described.sha256 = DigestText.hex(try sink.finish())
                    } else {
                        var hasher = SHA256()
                        described.size = try read { bytes in
                            hasher.update(bytes)
                            try file.write(bytes)
                        }
                        described.sha256 = DigestText.hex(hasher.finalize())
                    }
                    files[entry.path] = described
                } else {
                    _ = try read { bytes in try file.write(bytes) }
                }
                try file.close()
            }
        } catch {
            scratch.remove()
            throw error
        }
        return (scratch, files)
    }

    /// Runs `body` for each admitted entry with a function that streams its data through a
    /// sink, metered against the limits, and returns the byte count.
    private func forEachEntry(
        _ body: (ArchiveEntry, (_ sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64) throws -> Void
    ) throws {
        var validator = try makeValidator()
        let reader = try LibArchiveReader(path: archiveURL.path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { buffer.deallocate() }
        var totalProduced: Int64 = 0
        while let raw = try reader.nextEntry() {
            let entry = try validator.admit(raw)
            let limits = self.limits
            try body(entry) { sink in
                var meter = EntryByteMeter(
                    name: raw.name, declaredSize: entry.size, limits: limits,
                    compressedStart: reader.compressedBytesConsumed)
                while true {
                    let count = try reader.readData(into: buffer, entry: raw.name)
                    if count == 0 { break }
                    try meter.add(count, totalProduced: &totalProduced, compressedNow: reader.compressedBytesConsumed)
                    try sink(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                }
                try meter.finish()
                return meter.produced
            }
        }
    }

    private func makeValidator() throws -> ArchiveEntryValidator {
        let roots = try allowedRoots.map { try ArchivePath.normalize($0, code: .invalidParameter) }
        return ArchiveEntryValidator(limits: limits, allowedRoots: roots)
    }
}
