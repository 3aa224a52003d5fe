import Dispatch
import Foundation
import Quire

/// Runs a one-shot replicator to its end from synchronous code, counting the documents it
/// transferred; fixture builds and the conformance engine use it.
///
/// The calling thread blocks until the replicator stops, so it must not be one of Swift
/// concurrency's cooperative threads.
package enum BlockingReplication {
    /// What one run did.
    package struct Outcome: Sendable, Equatable {
        /// Documents pushed successfully (deletions included).
        package var pushed: Int
        /// Documents pulled successfully (deletions included).
        package var pulled: Int
        /// Why the run stopped early; nil when it finished.
        package var error: QuireError?
    }

    /// Starts `replicator` (which must not be continuous), waits until it stops and returns
    /// the counts its document-replication listener saw.
    ///
    /// - Throws: `QuireError.timeout` (network domain) when it runs longer than `timeout`
    ///   seconds; the replicator is stopped first.
    package static func run(_ replicator: Replicator, reset: Bool = false, timeout: TimeInterval = 60) throws -> Outcome
    {
        guard !replicator.config.continuous else {
            throw QuireError(.invalidParameter, "a continuous replicator never finishes; use a one-shot one")
        }
        let queue = DispatchQueue(label: "Quire.BlockingReplication")
        let tally = Tally()
        let stopped = DispatchSemaphore(value: 0)
        let documentToken = replicator.addDocumentReplicationListener(withQueue: queue) { change in
            tally.add(change.documents.filter { $0.error == nil }.count, pushed: change.isPush)
        }
        let statusToken = replicator.addChangeListener(withQueue: queue) { change in
            if change.status.activity == .stopped { stopped.signal() }
        }
        defer {
            documentToken.remove()
            statusToken.remove()
        }
        replicator.start(reset: reset)
        // A configuration refused at start leaves the status stopped, perhaps unchanged.
        if replicator.status.activity != .stopped {
            if stopped.wait(timeout: .now() + timeout) == .timedOut {
                replicator.stop()
                _ = stopped.wait(timeout: .now() + 10)
                throw QuireError(
                    .timeout, "the replication did not finish within \(Int(timeout)) seconds", domain: .network)
            }
        }
        // Listeners run in order on `queue`: once it is drained, every batch has been counted.
        queue.sync {}
        let (pushed, pulled) = tally.counts
        return Outcome(pushed: pushed, pulled: pulled, error: replicator.status.error)
    }

    private final class Tally: Sendable {
        private let tally = Locked((pushed: 0, pulled: 0))

        func add(_ count: Int, pushed isPush: Bool) {
            tally.withLock { tally in
                if isPush { tally.pushed += count } else { tally.pulled += count }
            }
        }

        var counts: (pushed: Int, pulled: Int) { tally.withLock { $0 } }
    }
}
