import Foundation
import Quire

/// A child process for tests that need a process of their own.
///
/// By default, for crash-consistency tests: it writes batches of documents to a database until
/// it is killed, printing `committed <batch>` after each batch returns.
///
/// With `--stream-blob FILE`, for the blob memory test: it stores FILE as a blob from a stream,
/// reads it back through the blob's stream, and prints `length <bytes> growth <bytes>`, the
/// growth of its peak resident memory meanwhile. Resident memory is per process, so this is
/// measured here rather than in the test process, where other tests run at the same time.
///
/// Usage: `quire-crash-writer DIRECTORY [--full-sync] [--batch-size N] | DIRECTORY --stream-blob FILE`
@main
enum CrashWriter {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let directory = arguments.first else {
            FileHandle.standardError.write(Data("usage: quire-crash-writer DIRECTORY [--full-sync] [--batch-size N] | DIRECTORY --stream-blob FILE\n".utf8))
            exit(2)
        }
        arguments.removeFirst()
        if let index = arguments.firstIndex(of: "--stream-blob"), index + 1 < arguments.count {
            streamBlob(from: arguments[index + 1], directory: directory)
        }
        let fullSync = arguments.contains("--full-sync")
        var batchSize = 20
        if let index = arguments.firstIndex(of: "--batch-size"), index + 1 < arguments.count,
            let size = Int(arguments[index + 1]), size > 0
        {
            batchSize = size
        }
        do {
            let database = try Database(name: "crash", config: DatabaseConfiguration(directory: directory, fullSync: fullSync))
            let collection = try database.createCollection(name: "batches", scope: "crash")
            // Batches are all-or-nothing, so the count tells where the last run stopped.
            var batch = Int(collection.count) / batchSize
            let padding = String(repeating: "x", count: 200)
            while true {
                try database.inBatch {
                    for item in 0..<batchSize {
                        try collection.save(
                            document: MutableDocument(
                                id: "b\(batch)-\(item)", data: ["batch": batch, "item": item, "size": batchSize, "pad": padding]))
                    }
                }
                FileHandle.standardOutput.write(Data("committed \(batch)\n".utf8))
                batch += 1
            }
        } catch {
            FileHandle.standardError.write(Data("quire-crash-writer: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func streamBlob(from file: String, directory: String) -> Never {
        do {
            let database = try Database(name: "blob", config: DatabaseConfiguration(directory: directory))
            let collection = try database.defaultCollection()
            guard let source = InputStream(fileAtPath: file) else { throw QuireError(.notFound, "no file '\(file)'") }
            let baseline = peakResidentBytes(reset: true)
            try collection.save(document: MutableDocument(id: "large").setBlob(
                Blob(contentType: "application/octet-stream", contentStream: source), forKey: "data"))
            guard let stream = try collection.document(id: "large")?.blob(forKey: "data")?.contentStream else {
                throw QuireError(.notFound, "the blob did not come back")
            }
            stream.open()
            defer { stream.close() }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var length = 0
            while true {
                let count = stream.read(&buffer, maxLength: buffer.count)
                if count < 0 { throw stream.streamError ?? QuireError(.unexpectedError, "the blob stream failed") }
                if count == 0 { break }
                length += count
            }
            print("length \(length) growth \(peakResidentBytes(reset: false) - baseline)")
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("quire-crash-writer: \(error)\n".utf8))
            exit(1)
        }
    }

    /// `VmHWM` in bytes (0 where there is no `/proc`), after resetting it to the current
    /// resident size when asked (writing 5 to `/proc/self/clear_refs`).
    private static func peakResidentBytes(reset: Bool) -> Int {
        if reset, let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            try? handle.write(contentsOf: Data("5".utf8))
            try? handle.close()
        }
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return (line.split(separator: " ").compactMap { Int($0) }.first ?? 0) * 1024
        }
        return 0
    }
}
