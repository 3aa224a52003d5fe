import Foundation
import Quire

/// Writes a file (or standard output) through a buffer, for export's streaming output.
final class DbFileWriter {
    private let handle: FileHandle
    private let ownsHandle: Bool
    private var buffer: [UInt8] = []
    private let path: String

    /// Creates (or truncates) the file at `path`; `-` writes to standard output.
    init(path: String) throws {
        self.path = path
        if path == "-" {
            handle = .standardOutput
            ownsHandle = false
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let opened = FileHandle(forWritingAtPath: path)
        else {
            throw DbFailure("Cannot create the file \(path)")
        }
        handle = opened
        ownsHandle = true
    }

    /// Appends `bytes`.
    func append(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is buffered, and closes the file.
    func close() throws {
        try flush()
        if ownsHandle { try handle.close() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw DbFailure("Cannot write \(path == "-" ? "standard output" : path): \(error.localizedDescription)")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
