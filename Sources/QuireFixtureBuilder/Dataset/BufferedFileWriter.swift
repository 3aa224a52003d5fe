import Foundation
import Quire
import QuireFixtures

/// Appends bytes to a file (or standard output) through a memory buffer, so writing millions
/// of short lines costs few system calls and never holds the whole file.
package final class BufferedFileWriter {
    private let write: (UnsafeRawBufferPointer) throws -> Void
    private let closeFile: () throws -> Void
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16

    private init(write: @escaping (UnsafeRawBufferPointer) throws -> Void, close: @escaping () throws -> Void) {
        self.write = write
        closeFile = close
        buffer.reserveCapacity(capacity)
    }

    /// Creates the file (it must not exist yet) with permissions 0644.
    package convenience init(path: String) throws {
        let file = try PosixFile.create(path, permissions: 0o644)
        self.init(write: { try file.write($0) }, close: { try file.close() })
    }

    /// Creates the file at `path`, or empties it when it exists; `-` is standard output.
    ///
    /// - Throws: `QuireError.cantOpenFile` when the file cannot be created.
    package static func replacing(_ path: String) throws -> BufferedFileWriter {
        let handle: FileHandle
        if path == "-" {
            handle = .standardOutput
        } else {
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let opened = FileHandle(forWritingAtPath: path)
            else {
                throw QuireError(.cantOpenFile, "cannot create the file \(path)")
            }
            handle = opened
        }
        let shown = path == "-" ? "standard output" : path
        return BufferedFileWriter(
            write: { bytes in
                do {
                    try handle.write(contentsOf: Data(bytes))
                } catch {
                    throw QuireError(.ioError, "cannot write \(shown): \(error.localizedDescription)")
                }
            },
            close: { if path != "-" { try handle.close() } })
    }

    /// Appends `bytes`.
    package func append(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    /// Writes what is buffered and closes the file.
    package func close() throws {
        try flush()
        try closeFile()
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try write($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
