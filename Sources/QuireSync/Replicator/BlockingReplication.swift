import Dispatch
import Foundation
import Quire

/// Runs a replicator to its end from synchronous code, counting the documents it transferred;
/// fixture builds, the conformance engine and `quire db push`/`pull` use it.
///
/// The calling thread blocks until the replicator stops, so it must not be one of Swift
/// concurrency's cooperative threads.
package enum BlockingReplication {
    /// What one run did.
    package struct Outcome: Sendable, Equatable {
        /// Documents pushed successfully (deletions included).
        package var pushed = 0
        /// Documents pulled successfully (deletions included).
        package var pulled = 0
        /// Documents that failed to push.
        package var pushFailed = 0
        /// Documents that failed to pull.
        package var pullFailed = 0
        /// Why the run stopped early; nil when it finished.
        package var error: QuireError?

        /// No documents yet.
        package init() {}
    }

    /// Starts `replicator`, waits until it stops and returns the counts its
    /// document-replication listener saw.
    ///
    /// A continuous replicator runs until something calls `stop()`; it needs `timeout` nil.
    /// `documents` hears of each batch of documents with the counts so far, `status` of each
    /// status change; both on one serial queue, in order.
    ///
    /// - Throws: `QuireError.timeout` (network domain) when it runs longer than `timeout`
    ///   seconds; the replicator is stopped first.
    package static func run(
        _ replicator: Replicator, reset: Bool = false, timeout: TimeInterval? = 60,
        documents: @escaping @Sendable (DocumentReplication, Outcome) -> Void = { _, _ in },
        status: @escaping @Sendable (ReplicatorChange) -> Void = { _ in }
    ) throws -> Outcome {
        guard !replicator.config.continuous || timeout == nil else {
            throw QuireError(.invalidParameter, "a continuous replicator never finishes; use a one-shot one")
        }
        let queue = DispatchQueue(label: "Quire.BlockingReplication")
        let tally = Locked(Outcome())
        let stopped = DispatchSemaphore(value: 0)
        let documentToken = replicator.addDocumentReplicationListener(withQueue: queue) { change in
            let counts = tally.withLock { tally in
                for document in change.documents {
                    switch (change.isPush, document.error == nil) {
                    case (true, true): tally.pushed += 1
                    case (true, false): tally.pushFailed += 1
                    case (false, true): tally.pulled += 1
                    case (false, false): tally.pullFailed += 1
                    }
                }
                return tally
            }
            documents(change, counts)
        }
        let statusToken = replicator.addChangeListener(withQueue: queue) { change in
            status(change)
            if change.status.activity == .stopped { stopped.signal() }
        }
        defer {
            documentToken.remove()
            statusToken.remove()
        }
        replicator.start(reset: reset)
        // A configuration refused at start leaves the status stopped, perhaps unchanged.
        if replicator.status.activity != .stopped {
            if let timeout {
                if stopped.wait(timeout: .now() + timeout) == .timedOut {
                    replicator.stop()
                    _ = stopped.wait(timeout: .now() + 10)
                    throw QuireError(
                        .timeout, "the replication did not finish within \(Int(timeout)) seconds", domain: .network)
                }
            } else {
                stopped.wait()
            }
        }
        // Listeners run in order on `queue`: once it is drained, every batch has been counted.
        queue.sync {}
        var outcome = tally.withLock { $0 }
        outcome.error = replicator.status.error
        return outcome
    }
}
