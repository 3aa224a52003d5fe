import Dispatch
import Foundation
import Quire
import QuireSync

/// Runs a one-shot push or pull to its end, drawing its progress when standard output is a
/// terminal and printing a summary: documents transferred, failed, and the time taken.
enum DbReplicationRunner {
    /// Runs `options`' replication of `target` in `direction` and prints the summary.
    ///
    /// - Throws: ``DbFailure`` naming why the replication stopped early, or how many documents failed.
    static func run(
        _ direction: ReplicatorType, target: DbDatabaseArgument, options: DbReplicationOptions, filter: String? = nil
    ) throws {
        let verb = direction == .push ? "Pushed" : "Pulled"
        let (transferred, failed, seconds) = try target.with { database in
            var created: [Collection] = []
            // A pull that fails leaves no collection it created and put nothing into.
            var succeeded = false
            defer {
                if !succeeded {
                    for collection in created where collection.count == 0 && collection.deletedCount == 0 {
                        try? database.deleteCollection(name: collection.name, scope: collection.scope.name)
                    }
                }
            }
            let config = try options.configuration(
                for: database, direction: direction, filter: filter, createMissing: direction == .pull,
                created: &created)
            let replicator = Replicator(config: config)
            let tally = Tally()
            let stopped = DispatchSemaphore(value: 0)
            let queue = DispatchQueue(label: "quire.db.replication")
            let interactive = DbOutput.isInteractive
            let documentToken = replicator.addDocumentReplicationListener(withQueue: queue) { change in
                for document in change.documents {
                    tally.count(failed: document.error != nil)
                    if let error = document.error {
                        FileHandle.standardError.write(
                            Data("\(document.collection) \(document.id): \(error.message)\n".utf8))
                    }
                }
            }
            let statusToken = replicator.addChangeListener(withQueue: queue) { change in
                let progress = change.status.progress
                if interactive, change.status.activity != .stopped {
                    FileHandle.standardError.write(
                        Data(
                            "\r\(change.status.activity)  \(progress.completed)/\(progress.total) changes\u{1b}[K".utf8)
                    )
                }
                if change.status.activity == .stopped { stopped.signal() }
            }
            defer {
                documentToken.remove()
                statusToken.remove()
            }
            let started = Date()
            replicator.start(reset: options.reset)
            if replicator.status.activity != .stopped { stopped.wait() }
            queue.sync {}
            if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
            if let error = replicator.status.error {
                throw DbFailure(
                    "The \(direction == .push ? "push to" : "pull from") \(options.url) stopped: \(error.message)")
            }
            let (transferred, failed) = tally.counts
            succeeded = true
            return (transferred, failed, Date().timeIntervalSince(started))
        }
        let elapsed = String(format: "%.2f", seconds)
        if options.json {
            try DbOutput.json(
                .object([
                    "direction": .string(direction == .push ? "push" : "pull"), "url": .string(options.url),
                    "documents": .int(Int64(transferred)), "failed": .int(Int64(failed)), "seconds": .double(seconds),
                ]))
        } else {
            let preposition = direction == .push ? "to" : "from"
            DbOutput.write(
                "\(verb) \(transferred) documents \(preposition) \(options.url) in \(elapsed) s"
                    + (failed > 0 ? ", \(failed) failed" : "") + "\n")
        }
        if failed > 0 { throw DbFailure("\(failed) documents failed to replicate") }
    }

    /// Document counts, added on the listener queue and read at the end.
    private final class Tally: @unchecked Sendable {
        // Safe: `values` is touched only under `lock`.
        private let lock = NSLock()
        private var values = (transferred: 0, failed: 0)

        func count(failed: Bool) {
            lock.withLock {
                if failed { values.failed += 1 } else { values.transferred += 1 }
            }
        }

        var counts: (Int, Int) { lock.withLock { values } }
    }
}
