import Foundation
import Quire

/// Writes batches of documents to a database until the process is killed, printing
/// `committed <batch>` after each batch returns.
enum CrashWriter {
    static func run(_ arguments: [String]) {
        var arguments = arguments
        guard let directory = arguments.first else {
            TestHelper.fail("usage: quire-test-helper crash-writer DIRECTORY [--full-sync] [--batch-size N]", status: 2)
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
            let database = try Database(
                name: "crash", config: DatabaseConfiguration(directory: directory, fullSync: fullSync))
            let collection = try database.createCollection(name: "batches", scope: "crash")
            // Batches are all-or-nothing, so the count tells where the last run stopped.
            var batch = Int(collection.count) / batchSize
            let padding = String(repeating: "x", count: 200)
            while true {
                try database.inBatch {
                    for item in 0..<batchSize {
                        try collection.save(
                            document: MutableDocument(
                                id: "b\(batch)-\(item)",
                                data: ["batch": batch, "item": item, "size": batchSize, "pad": padding]))
                    }
                }
                FileHandle.standardOutput.write(Data("committed \(batch)\n".utf8))
                batch += 1
            }
        } catch {
            TestHelper.fail("\(error)")
        }
    }
}
