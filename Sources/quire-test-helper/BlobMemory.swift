import Foundation
import Quire

/// Stores a large blob from a stream and reads it back through a stream, then prints
/// `peak-growth <bytes>`: how much the peak resident memory grew meanwhile.
enum BlobMemory {
    static func run(_ arguments: [String]) {
        guard arguments.count == 2, let size = Int(arguments[1]), size > 0 else {
            TestHelper.fail("usage: quire-test-helper blob-memory DIRECTORY SIZE", status: 2)
        }
        let directory = arguments[0]
        do {
            let source = URL(fileURLWithPath: directory).appendingPathComponent("source.bin")
            try writeNoise(to: source, size: size)
            let database = try Database(name: "blobs", config: DatabaseConfiguration(directory: directory))
            let collection = try database.defaultCollection()
            let baseline = resetPeak()
            guard let input = InputStream(url: source) else { TestHelper.fail("cannot read \(source.path)") }
            let blob = Blob(contentType: "application/octet-stream", contentStream: input)
            try collection.save(document: MutableDocument(id: "large").setBlob(blob, forKey: "data"))
            guard let stored = try collection.document(id: "large")?.blob(forKey: "data"),
                let stream = stored.contentStream
            else { TestHelper.fail("the stored blob cannot be read back") }
            stream.open()
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = stream.read(&buffer, maxLength: buffer.count)
                if count < 0 { TestHelper.fail("reading failed: \(String(describing: stream.streamError))") }
                if count == 0 { break }
                total += count
            }
            stream.close()
            guard total == size else { TestHelper.fail("read \(total) bytes back, stored \(size)") }
            print("peak-growth \(peak() - baseline)")
            try database.close()
        } catch {
            TestHelper.fail("\(error)")
        }
    }

    private static func writeNoise(to url: URL, size: Int) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            TestHelper.fail("cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var written = 0
        while written < size {
            for index in stride(from: 0, to: chunk.count, by: 8) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                withUnsafeBytes(of: state) { bytes in
                    for offset in 0..<8 where index + offset < chunk.count { chunk[index + offset] = bytes[offset] }
                }
            }
            let count = min(chunk.count, size - written)
            try handle.write(contentsOf: chunk[0..<count])
            written += count
        }
    }

    /// `VmHWM` in bytes.
    private static func peak() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return (line.split(separator: " ").compactMap { Int($0) }.first ?? 0) * 1024
        }
        return 0
    }

    /// Resets the peak to the current resident size (writing 5 to `/proc/self/clear_refs`).
    private static func resetPeak() -> Int {
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            try? handle.write(contentsOf: Data("5".utf8))
            try? handle.close()
        }
        return peak()
    }
}
