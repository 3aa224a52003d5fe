import QuireFixtures

/// Appends bytes to a new file through a memory buffer, so writing millions of short lines
/// costs few system calls and never holds the whole file.
final class BufferedFileWriter {
    private let file: PosixFile
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16

    /// Creates the file (it must not exist yet) with permissions 0644.
    init(path: String) throws {
        file = try PosixFile.create(path, permissions: 0o644)
        buffer.reserveCapacity(capacity)
    }

    func append(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    /// Writes what is buffered and closes the file.
    func close() throws {
        try flush()
        try file.close()
    }

    private func flush() throws {
        try buffer.withUnsafeBytes { try file.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
