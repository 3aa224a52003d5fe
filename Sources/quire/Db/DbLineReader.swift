import Foundation

/// Reads a file line by line in 1 MB chunks, so a JSON Lines file of any size streams.
struct DbLineReader {
    /// The file's path.
    let path: String

    /// Calls `body` with each line (without its newline) and its 1-based number; blank lines are skipped.
    func forEachLine(_ body: ([UInt8], Int) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw DbFailure("Cannot read the file \(path)") }
        defer { try? handle.close() }
        var pending: [UInt8] = []
        var number = 0
        func emit(_ line: ArraySlice<UInt8>) throws {
            number += 1
            var bytes = Array(line)
            if bytes.last == 0x0d { bytes.removeLast() }
            if bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) { try body(bytes, number) }
        }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            pending.append(contentsOf: chunk)
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: 0x0a) {
                try emit(pending[start..<newline])
                start = newline + 1
            }
            pending.removeSubrange(..<start)
        }
        if !pending.isEmpty { try emit(pending[...]) }
    }
}
