import Foundation
import Quire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor with the few operations the packager needs, every failure turned
/// into a `QuireError` that names the path.
///
/// Plain POSIX calls rather than `FileHandle` so that creation flags (`O_EXCL`, `O_NOFOLLOW`)
/// and permissions are explicit, and reads stream through one reusable buffer.
package final class PosixFile {
    package let path: String
    private(set) var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { _ = systemClose(descriptor) }
    }

    /// Opens an existing file for reading; refuses anything that is not a regular file.
    package static func openForReading(_ path: String) throws -> PosixFile {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw QuireError.posix(errno, "cannot open '\(path)' for reading") }
        let file = PosixFile(path: path, descriptor: fd)
        guard try file.isRegularFile() else {
            throw QuireError(.invalidParameter, "'\(path)' is not a regular file")
        }
        return file
    }

    /// Opens an existing file for reading and writing in place.
    package static func openForUpdate(_ path: String) throws -> PosixFile {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw QuireError.posix(errno, "cannot open '\(path)' for update") }
        return PosixFile(path: path, descriptor: fd)
    }

    /// Creates a new file (never following a symlink, never reusing an existing name) with
    /// `permissions` set exactly, whatever the umask.
    package static func create(_ path: String, permissions: mode_t = 0o644) throws -> PosixFile {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw QuireError.posix(errno, "cannot create '\(path)'") }
        let file = PosixFile(path: path, descriptor: fd)
        guard fchmod(fd, permissions) == 0 else { throw QuireError.posix(errno, "cannot set permissions of '\(path)'") }
        return file
    }

    /// Reads the regular file at `path` from start to end in 64 KiB pieces, handing each to
    /// `sink` (to hash it, say), and returns its length.
    package static func stream(_ path: String, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        let file = try openForReading(path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var length: Int64 = 0
        while true {
            let count = try file.read(into: buffer)
            if count == 0 { break }
            try sink(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            length += Int64(count)
        }
        try file.close()
        return length
    }

    package func isRegularFile() throws -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw QuireError.posix(errno, "cannot stat '\(path)'") }
        return info.st_mode & S_IFMT == S_IFREG
    }

    /// The file's current size in bytes.
    package func size() throws -> Int64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw QuireError.posix(errno, "cannot stat '\(path)'") }
        return Int64(info.st_size)
    }

    /// Reads up to `buffer.count` bytes at the current position; 0 means end of file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw QuireError.posix(errno, "cannot read '\(path)'") }
        }
    }

    /// Reads exactly `count` bytes at `offset`.
    package func read(count: Int, at offset: Int64) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        try bytes.withUnsafeMutableBytes { buffer in
            while done < count {
                guard let base = buffer.baseAddress else { return }
                let got = pread(descriptor, base + done, count - done, off_t(offset) + off_t(done))
                if got < 0, errno == EINTR { continue }
                if got < 0 { throw QuireError.posix(errno, "cannot read '\(path)'") }
                if got == 0 {
                    throw QuireError(.corruptData, "'\(path)' ends early (wanted \(count) bytes at \(offset))")
                }
                done += got
            }
        }
        return bytes
    }

    /// Writes all of `bytes` at the current position.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            guard let base = bytes.baseAddress else { return }
            let count = systemWrite(descriptor, base + done, bytes.count - done)
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw QuireError.posix(errno, "cannot write '\(path)'") }
            done += count
        }
    }

    /// Writes all of `bytes` at `offset`.
    package func write(_ bytes: [UInt8], at offset: Int64) throws {
        var done = 0
        try bytes.withUnsafeBytes { buffer in
            while done < buffer.count {
                guard let base = buffer.baseAddress else { return }
                let count = pwrite(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
                if count < 0, errno == EINTR { continue }
                if count < 0 { throw QuireError.posix(errno, "cannot write '\(path)'") }
                done += count
            }
        }
    }

    /// Closes the descriptor, reporting a failed close (which can mean lost writes).
    package func close() throws {
        guard descriptor >= 0 else { return }
        let fd = descriptor
        descriptor = -1
        guard systemClose(fd) == 0 else { throw QuireError.posix(errno, "cannot close '\(path)'") }
    }
}

// The Glibc names collide with this type's methods inside its own scope.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

private func systemClose(_ fd: Int32) -> Int32 {
    close(fd)
}
