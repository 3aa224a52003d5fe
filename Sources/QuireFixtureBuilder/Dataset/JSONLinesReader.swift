import Foundation
import Quire
import QuireFixtures

/// Reads a file one line at a time through a fixed-size buffer, so a large `.jsonl` never has
/// to fit in memory; only the current line does.
package final class JSONLinesReader {
    /// Longest accepted line; a longer one is reported rather than buffered without end.
    static let maximumLineBytes = 64 << 20

    private let file: PosixFile
    private let chunk: UnsafeMutableRawBufferPointer
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var searchedUpTo = 0
    private var atEnd = false
    /// The 1-based number of the line last returned.
    package private(set) var lineNumber = 0

    package init(path: String) throws {
        file = try PosixFile.openForReading(path)
        chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    }

    deinit {
        chunk.deallocate()
    }

    package var path: String { file.path }

    /// The next line without its `\n` (or `\r\n`), or nil at the end of the file.
    package func nextLine() throws -> ArraySlice<UInt8>? {
        while true {
            if let newline = firstNewline(from: max(pendingStart, searchedUpTo)) {
                var line = pending[pendingStart..<newline]
                pendingStart = newline + 1
                searchedUpTo = pendingStart
                if line.last == 0x0d { line = line.dropLast() }
                lineNumber += 1
                return line
            }
            if atEnd {
                guard pendingStart < pending.count else { return nil }
                let line = pending[pendingStart...]
                pendingStart = pending.count
                lineNumber += 1
                return line.last == 0x0d ? line.dropLast() : line
            }
            if pendingStart > 0 {
                pending.removeFirst(pendingStart)
                pendingStart = 0
            }
            searchedUpTo = pending.count
            guard pending.count <= Self.maximumLineBytes else {
                throw QuireError(
                    .corruptData,
                    "line \(lineNumber + 1) of '\(file.path)' is longer than \(Self.maximumLineBytes) bytes")
            }
            let count = try file.read(into: chunk)
            if count == 0 {
                atEnd = true
            } else {
                pending.append(contentsOf: chunk[0..<count])
            }
        }
    }

    /// The index of the first `\n` of `pending` at or after `start` (`memchr`, many bytes at a
    /// time).
    private func firstNewline(from start: Int) -> Int? {
        pending.withUnsafeBytes { bytes in
            guard start < bytes.count, let base = bytes.baseAddress,
                let found = memchr(base + start, 0x0a, bytes.count - start)
            else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }
}
