import Quire

/// Applies Quire's rules to archive entries one at a time, remembering what it has seen so
/// duplicates and file/folder clashes are caught whatever the order.
struct ArchiveEntryValidator {
    let limits: ArchiveLimits
    /// Normalised paths every entry must equal or lie inside; empty allows any path.
    let allowedRoots: [String]

    private var rawNameByPath: [String: String] = [:]
    private var rawNameByCollisionKey: [String: String] = [:]
    private var kindByPath: [String: ArchiveEntry.Kind] = [:]
    private var impliedFolders: [String: String] = [:]
    private(set) var entryCount = 0
    private(set) var declaredTotal: Int64 = 0

    init(limits: ArchiveLimits, allowedRoots: [String]) {
        self.limits = limits
        self.allowedRoots = allowedRoots
    }

    /// Checks one entry; returns its normalised description with its declared size.
    mutating func admit(_ raw: RawArchiveEntry) throws -> ArchiveEntry {
        entryCount += 1
        guard entryCount <= limits.maximumEntryCount else {
            throw QuireError(
                .corruptData,
                "archive has more than \(limits.maximumEntryCount) entries (entry count limit), at '\(raw.name)'")
        }
        let path = try ArchivePath.normalize(raw.name, code: .corruptData)
        let kind = try Self.kind(of: raw)
        func refuse(_ rule: String) -> QuireError {
            QuireError(.corruptData, "archive entry '\(raw.name)' \(rule)")
        }

        if !allowedRoots.isEmpty, !allowedRoots.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) {
            throw refuse(
                allowedRoots.count == 1
                    ? "is outside the required folder '\(allowedRoots[0])'"
                    : "is outside the allowed paths \(allowedRoots.map { "'\($0)'" }.joined(separator: ", "))")
        }
        if let first = rawNameByPath[path] {
            throw refuse(first == raw.name ? "appears twice" : "duplicates '\(first)' (both are '\(path)')")
        }
        let collisionKey = ArchivePath.collisionKey(path)
        if let first = rawNameByCollisionKey[collisionKey] {
            throw refuse("differs from '\(first)' only in letter case or Unicode form")
        }
        for ancestor in ArchivePath.ancestors(of: path) where kindByPath[ancestor] == .file {
            throw refuse("is inside '\(ancestor)', which is a file")
        }
        if kind == .file, let inner = impliedFolders[path] {
            throw refuse("is a file but '\(inner)' needs it to be a folder")
        }

        var size: Int64?
        if kind == .file, let declared = raw.declaredSize {
            guard declared >= 0 else { throw refuse("declares a negative size") }
            guard declared <= limits.maximumEntrySize else {
                throw refuse("declares \(declared) bytes, over the per-entry limit of \(limits.maximumEntrySize)")
            }
            declaredTotal += declared
            guard declaredTotal <= limits.maximumTotalSize else {
                throw refuse(
                    "brings the declared total to \(declaredTotal) bytes, over the limit of \(limits.maximumTotalSize)")
            }
            size = declared
        }

        rawNameByPath[path] = raw.name
        rawNameByCollisionKey[collisionKey] = raw.name
        kindByPath[path] = kind
        for ancestor in ArchivePath.ancestors(of: path) where impliedFolders[ancestor] == nil {
            impliedFolders[ancestor] = raw.name
        }
        return ArchiveEntry(path: path, kind: kind, size: size)
    }

    private static func kind(of raw: RawArchiveEntry) throws -> ArchiveEntry.Kind {
        func refuse(_ rule: String) -> QuireError {
            QuireError(.corruptData, "archive entry '\(raw.name)' \(rule); only regular files and folders are allowed")
        }
        if let target = raw.hardlinkTarget { throw refuse("is a hard link (to '\(target)')") }
        switch raw.fileType & LibArchiveFileType.mask {
        case LibArchiveFileType.regular:
            if raw.isEncrypted {
                throw QuireError(.corruptData, "archive entry '\(raw.name)' is encrypted")
            }
            return .file
        case LibArchiveFileType.directory:
            return .directory
        case LibArchiveFileType.symbolicLink:
            throw refuse("is a symbolic link (to '\(raw.symlinkTarget ?? "")')")
        case LibArchiveFileType.characterDevice, LibArchiveFileType.blockDevice:
            throw refuse("is a device")
        case LibArchiveFileType.fifo:
            throw refuse("is a FIFO")
        case LibArchiveFileType.socket:
            throw refuse("is a socket")
        default:
            throw refuse("has an unknown file type")
        }
    }
}
