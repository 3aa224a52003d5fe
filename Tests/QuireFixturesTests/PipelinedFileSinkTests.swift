import Foundation
import Quire
import QuireFixturesTestSupport
import Testing

@testable import QuireFixtures

@Suite struct PipelinedFileSinkTests {
    /// Bytes that do not repeat in any short period (a linear congruential sequence).
    static func noise(count: Int) -> Data {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return Data(
            (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 33)
            })
    }

    @Test func writesAndHashesEveryByteInOrder() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        // Several buffers' worth, in pieces that straddle every buffer boundary.
        let data = Self.noise(count: 3 * PipelinedFileSink.bufferSize * PipelinedFileSink.bufferCount + 7)
        let path = scratch.file("out.bin").path
        let file = try PosixFile.create(path)
        let sink = PipelinedFileSink(file: file)
        defer { sink.stop() }
        let piece = 65_537
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + piece, bytes.count)
                try sink.write(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                offset = end
            }
        }
        let digest = try sink.finish()
        try file.close()
        #expect(DigestText.hex(digest) == DigestText.hex(SHA256.hash(data: data)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)
        // Nothing written: the digest of no bytes.
        let empty = try PosixFile.create(scratch.file("empty.bin").path)
        let idle = PipelinedFileSink(file: empty)
        defer { idle.stop() }
        #expect(DigestText.hex(try idle.finish()) == DigestText.hex(SHA256.hash(data: Data())))
        try empty.close()
    }

    @Test func aFailedWriteIsReported() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let file = try PosixFile.create(scratch.file("closed.bin").path)
        try file.close()
        let sink = PipelinedFileSink(file: file)
        defer { sink.stop() }
        let data = Self.noise(count: PipelinedFileSink.bufferSize + 1)
        let error = #expect(throws: QuireError.self) {
            // The first buffer's write fails on the thread; the caller hears of it at the
            // latest when it finishes.
            for _ in 0..<(2 * PipelinedFileSink.bufferCount) {
                try data.withUnsafeBytes { try sink.write($0) }
            }
            _ = try sink.finish()
        }
        #expect(error?.message.contains("cannot write") == true)
    }

    @Test func stoppingMidwayEndsTheThread() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let file = try PosixFile.create(scratch.file("partial.bin").path)
        let sink = PipelinedFileSink(file: file)
        let data = Self.noise(count: 2 * PipelinedFileSink.bufferSize + 3)
        try data.withUnsafeBytes { try sink.write($0) }
        // Returns once the thread has ended, whatever it had left to write.
        sink.stop()
        sink.stop()
        try file.close()
        let written = try Data(contentsOf: scratch.file("partial.bin"))
        #expect(written.count <= data.count)
        #expect(written == data.prefix(written.count))
    }
}
