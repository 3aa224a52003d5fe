import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor of a blob file, with the few POSIX calls the blob store needs.
///
/// Plain descriptors rather than `FileHandle`: reads go straight into the caller's buffer
/// and writes come straight from it, so streaming a blob never copies it into `Data`.
struct BlobFile {
    let descriptor: Int32
    let path: String

    /// Opens `path` for reading.
    static func openForReading(_ path: String) throws -> BlobFile {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw QuireError.posix(code, "cannot open blob file \(path): \(String(cString: strerror(code)))")
        }
        return BlobFile(descriptor: descriptor, path: path)
    }

    /// Creates `path`, which must not exist, for writing.
    static func create(_ path: String) throws -> BlobFile {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw QuireError.posix(code, "cannot create blob file \(path): \(String(cString: strerror(code)))")
        }
        return BlobFile(descriptor: descriptor, path: path)
    }

    /// Reads up to `count` bytes into `buffer`; 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        while true {
            let result = systemRead(descriptor, buffer, count)
            if result >= 0 { return result }
            let code = errno
            if code == EINTR { continue }
            throw QuireError.posix(code, "cannot read blob file \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Writes all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let result = systemWrite(descriptor, next, remaining)
            if result < 0 {
                let code = errno
                if code == EINTR { continue }
                throw QuireError.posix(code, "cannot write blob file \(path): \(String(cString: strerror(code)))")
            }
            next += result
            remaining -= result
        }
    }

    /// Flushes the file's content to the disk, so a document saved afterwards never refers to
    /// bytes a power loss could take away.
    func synchronize() throws {
        guard fsync(descriptor) == 0 else {
            let code = errno
            throw QuireError.posix(code, "cannot flush blob file \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Closes the descriptor.
    func close() {
        systemClose(descriptor)
    }

    /// The size of the file at `path`, or nil when there is no regular file there.
    static func size(atPath path: String) -> UInt64? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return UInt64(info.st_size)
    }
}

// The methods above shadow these C functions inside the type.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func systemClose(_ descriptor: Int32) {
    _ = close(descriptor)
}
