import Foundation
import Quire

/// Writes a file and hashes it with SHA-256 on a thread of its own, while the caller makes
/// the next bytes (decompresses them): extracting a large entry then takes about as long as
/// decompressing it, where doing the three in turn added the digest and the writes to it.
///
/// Bytes are copied into a few large buffers and handed over in order, so the file and the
/// digest are exactly what writing and hashing in place would give. The caller waits only
/// when every buffer is in use. A failed write is reported by the next ``write(_:)`` or by
/// ``finish()``; ``stop()`` (always call it, in a `defer`) ends the thread whatever happened,
/// so nothing keeps running or writing after the caller has given up on the file.
final class PipelinedFileSink: @unchecked Sendable {
    // Safe because `free`, `full`, `ending`, `discarding`, `done` and `failure` are read and
    // written with `condition` locked; `filling` and `filled` are the caller's alone; `hasher`
    // is the thread's until `done` and the caller's after it. A buffer belongs to the caller
    // while it is being filled, to the thread while it is in `full`.
    private let condition = NSCondition()
    private let file: PosixFile
    private var free: [UnsafeMutableRawBufferPointer]
    private var full: [(buffer: UnsafeMutableRawBufferPointer, count: Int)] = []
    private var filling: UnsafeMutableRawBufferPointer?
    private var filled = 0
    private var ending = false
    private var discarding = false
    private var done = false
    private var failure: (any Error)?
    private var hasher = SHA256()
    private let buffers: [UnsafeMutableRawBufferPointer]

    /// Bytes per buffer, and buffers: the caller fills one while the thread works on another.
    static let bufferSize = 1 << 20
    static let bufferCount = 3
    /// Entries at least this large are worth a thread; smaller ones are written in place.
    static let worthwhileSize: Int64 = 4 << 20

    /// Starts the thread that writes to `file`, which the caller closes after ``stop()``.
    init(file: PosixFile) {
        self.file = file
        buffers = (0..<Self.bufferCount).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 64)
        }
        free = buffers
        let thread = Thread { [self] in drain() }
        thread.name = "quire.extract"
        thread.start()
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// Queues `bytes` to be written and hashed after those before them.
    ///
    /// - Throws: what writing the file threw, once it has failed.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let buffer = try filling ?? takeFreeBuffer()
            filling = buffer
            let count = min(bytes.count - offset, buffer.count - filled)
            UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<(filled + count)])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
            filled += count
            offset += count
            if filled == buffer.count { handOver() }
        }
    }

    /// Waits until every byte is written and hashed, and returns the digest.
    ///
    /// - Throws: what writing the file threw.
    func finish() throws -> [UInt8] {
        if filled > 0 { handOver() }
        end(discarding: false)
        if let failure { throw failure }
        return hasher.finalize()
    }

    /// Ends the thread, dropping what it has not written yet; after ``finish()`` it only
    /// waits for nothing.
    func stop() {
        end(discarding: true)
    }

    private func end(discarding: Bool) {
        condition.lock()
        defer { condition.unlock() }
        ending = true
        if discarding { self.discarding = true }
        condition.broadcast()
        while !done { condition.wait() }
    }

    private func takeFreeBuffer() throws -> UnsafeMutableRawBufferPointer {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && failure == nil { condition.wait() }
        if let failure { throw failure }
        return free.removeLast()
    }

    private func handOver() {
        guard let buffer = filling else { return }
        condition.lock()
        full.append((buffer, filled))
        condition.broadcast()
        condition.unlock()
        filling = nil
        filled = 0
    }

    /// The thread: writes and hashes each full buffer in order, gives it back, and ends when
    /// told to and nothing is left (or at once when told to drop the rest).
    private func drain() {
        condition.lock()
        while true {
            if let next = full.first, !discarding {
                full.removeFirst()
                let skip = failure != nil
                condition.unlock()
                var failed: (any Error)?
                if !skip {
                    let bytes = UnsafeRawBufferPointer(rebasing: next.buffer[0..<next.count])
                    hasher.update(bytes)
                    do { try file.write(bytes) } catch { failed = error }
                }
                condition.lock()
                if let failed, failure == nil { failure = failed }
                free.append(next.buffer)
                condition.broadcast()
            } else if ending {
                done = true
                condition.broadcast()
                condition.unlock()
                return
            } else {
                condition.wait()
            }
        }
    }
}
