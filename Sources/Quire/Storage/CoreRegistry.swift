import Foundation

/// The process-wide map from canonical file paths to their shared ``DatabaseCore``.
///
/// Cores are held weakly: a core lives while some `Database` object refers to it, so its tag
/// and handles go away with the last object, as WCDB's reference-counted cores do.
final class CoreRegistry: @unchecked Sendable {
    // Safe because the map is only reached under its lock; the weak boxes in it are made,
    // read and dropped only there.
    static let shared = CoreRegistry()

    private final class WeakCore {
        weak var core: DatabaseCore?
        init(_ core: DatabaseCore) { self.core = core }
    }

    /// Keyed by the path's bytes: `String` equality is canonical equivalence, so a path spelt
    /// in NFC would find the core of its NFD spelling, which on Linux is another file.
    private let cores = Locked<[[UInt8]: WeakCore]>([:])

    /// The core for a path, created on first use. The path is canonicalised first.
    func core(forPath path: String, migrator: SchemaMigrator) -> DatabaseCore {
        let canonical = CoreRegistry.canonicalPath(path)
        return cores.withLock { cores in
            if let existing = cores[Array(canonical.utf8)]?.core { return existing }
            let core = DatabaseCore(path: canonical, migrator: migrator)
            cores[Array(canonical.utf8)] = WeakCore(core)
            if cores.count > 64 { cores = cores.filter { $0.value.core != nil } }
            return core
        }
    }

    /// The live core carrying `tag`, if any.
    func core(withTag tag: Int) -> DatabaseCore? {
        allCores().first { $0.tag == tag }
    }

    /// Whether a `Database` object of this process has the file at `path` open (LiteCore's
    /// `DataFile::openCountOnPath`). Looks the path up without making a core.
    func isOpen(path: String) -> Bool {
        let canonical = CoreRegistry.canonicalPath(path)
        guard let core = cores.withLock({ $0[Array(canonical.utf8)]?.core }) else { return false }
        return core.attachedObjectCount > 0
    }

    /// Every live core.
    func allCores() -> [DatabaseCore] {
        cores.withLock { $0.values.compactMap(\.core) }
    }

    /// An absolute path with `.` and `..` resolved and symbolic links followed, also for a
    /// file that does not exist yet (its deepest existing ancestor is resolved instead), so
    /// that every spelling of one file finds the same core.
    static func canonicalPath(_ path: String) -> String {
        let absolute: String
        if path.hasPrefix("/") {
            absolute = path
        } else {
            absolute = FileManager.default.currentDirectoryPath + "/" + path
        }
        return resolve(absolute)
    }

    private static func resolve(_ path: String) -> String {
        if let real = realPath(path) { return real }
        let url = URL(fileURLWithPath: path)
        let last = url.lastPathComponent
        let parentPath = url.deletingLastPathComponent().path
        if parentPath == path || parentPath.isEmpty { return path }
        let parent = resolve(parentPath)
        switch last {
        case ".": return parent
        case "..": return URL(fileURLWithPath: parent).deletingLastPathComponent().path
        default: return parent == "/" ? "/" + last : parent + "/" + last
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
