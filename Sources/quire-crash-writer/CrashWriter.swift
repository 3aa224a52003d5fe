import Foundation
import Quire

/// A child process for crash-consistency tests: it writes batches of documents to a
/// database until it is killed, printing `committed <batch>` after each batch returns.
///
/// Usage: `quire-crash-writer DIRECTORY [--full-sync] [--batch-size N]`
@main
enum CrashWriter {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let directory = arguments.first else {
            FileHandle.standardError.write(Data("usage: quire-crash-writer DIRECTORY [--full-sync] [--batch-size N]\n".utf8))
            exit(2)
        }
        arguments.removeFirst()
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
}
