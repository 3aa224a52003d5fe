import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A hidden file or folder that an operation writes before it moves the result into place
/// (a database copy's staging folder, a fixture's extraction, a build's work folder, a
/// partial archive), held under an advisory `flock` for as long as its creator uses it.
///
/// The lock is what tells a living owner from a dead one: the kernel drops it when the last
/// descriptor closes, which a killed process's exit does. ``sweep(_:matching:)`` removes the
/// scratch that nobody holds any more and leaves the rest alone, so a run cleans what a
/// killed run left behind without touching the scratch of a run going on beside it (in
/// another process or on another thread: a lock belongs to an open file description, so two
/// opens in one process exclude each other too).
///
/// Names are `<prefix><UUID><suffix>`; the UUID is what ``isScratchName(_:prefix:suffix:)``
/// checks, so a sweep never takes a file of the user's that happens to share a prefix.
package final class OwnedScratch: @unchecked Sendable {
    // Safe because the descriptor is written only by `close()`, which callers call once, from
    // the thread that owns the scratch.

    /// What the scratch is.
    package enum Kind: Sendable {
        /// An empty folder.
        case folder
        /// An empty regular file.
        case file
    }

    /// The scratch's location.
    package let url: URL
    private var descriptor: Int32

    private init(url: URL, descriptor: Int32) {
        self.url = url
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { _ = closeDescriptor(descriptor) }
    }

    /// Creates `parent/<prefix><UUID><suffix>` and locks it.
    ///
    /// Between creating the name and locking it, a sweep in another process could take the
    /// new, still unlocked item for a dead one and remove it; so once locked, the item is
    /// checked to be still at its name, and made again under a new name if not.
    ///
    /// - Throws: a POSIX error naming the folder when the item cannot be created or locked.
    package static func create(_ kind: Kind, in parent: URL, prefix: String, suffix: String = "") throws -> OwnedScratch
    {
        var lastError: Int32 = 0
        for _ in 0..<8 {
            let url = parent.appendingPathComponent(prefix + UUID().uuidString + suffix, isDirectory: kind == .folder)
            let path = url.path
            let fd: Int32
            switch kind {
            case .folder:
                guard mkdir(path, 0o755) == 0 else {
                    throw QuireError.posix(
                        errno, "cannot create the temporary folder '\(path)': \(String(cString: strerror(errno)))")
                }
                fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            case .file:
                fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            }
            guard fd >= 0 else {
                lastError = errno
                if lastError == ENOENT { continue }  // swept before it could be opened
                throw QuireError.posix(
                    lastError, "cannot create the temporary item '\(path)': \(String(cString: strerror(lastError)))")
            }
            let scratch = OwnedScratch(url: url, descriptor: fd)
            if flock(fd, LOCK_EX | LOCK_NB) == 0, scratch.isStillAtItsName() { return scratch }
            lastError = errno
            // Either a sweep holds it now (and removes it), or removed it already.
            scratch.close()
        }
        throw QuireError.posix(
            lastError == 0 ? EAGAIN : lastError, "cannot create and lock a temporary item in '\(parent.path)'")
    }

    /// Releases the lock and keeps the item: it has been renamed into place, or handed on.
    package func close() {
        guard descriptor >= 0 else { return }
        _ = closeDescriptor(descriptor)
        descriptor = -1
    }

    /// Removes the item (a folder with everything in it), then releases the lock.
    package func remove() {
        try? FileManager.default.removeItem(at: url)
        close()
    }

    private func isStillAtItsName() -> Bool {
        var held = stat()
        var named = stat()
        guard fstat(descriptor, &held) == 0, lstat(url.path, &named) == 0 else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
    }

    /// Whether `name` is `<prefix><UUID><suffix>`.
    package static func isScratchName(_ name: String, prefix: String, suffix: String = "") -> Bool {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count == prefix.count + 36 + suffix.count else {
            return false
        }
        let middle = name.dropFirst(prefix.count).prefix(36)
        return UUID(uuidString: String(middle)) != nil
    }

    /// Removes the items in `folder` whose names `matching` accepts and that no living
    /// process holds: each is locked first (so its owner, if alive, keeps it), checked to be
    /// this user's own folder or regular file (never a symbolic link), removed, and unlocked.
    /// Problems (a folder that cannot be listed, an item that cannot be removed) are not
    /// errors: the caller's own work does not depend on them.
    ///
    /// - Returns: the names removed.
    @discardableResult
    package static func sweep(_ folder: URL, matching: (String) -> Bool) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names.sorted() where matching(name) {
            let url = folder.appendingPathComponent(name)
            // O_NONBLOCK: a FIFO planted under a scratch name must not hang the sweep.
            let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            let item = OwnedScratch(url: url, descriptor: fd)
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_uid == geteuid() else { continue }
            let type = info.st_mode & S_IFMT
            guard type == S_IFDIR || type == S_IFREG else { continue }
            // Held: its owner is alive. Gone from its name: someone else dealt with it.
            guard flock(fd, LOCK_EX | LOCK_NB) == 0, item.isStillAtItsName() else { continue }
            item.remove()
            if !FileManager.default.fileExists(atPath: url.path) { removed.append(name) }
        }
        return removed
    }
}

// The C `close` is shadowed by the method of the same name inside the type.
private func closeDescriptor(_ fd: Int32) -> Int32 {
    close(fd)
}
