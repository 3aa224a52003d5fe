import Dispatch
import Foundation
import Quire
import QuireSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A push, a pull or both run once or until Ctrl-C for `quire db push` and `pull`: a progress
/// line (documents, rate) on standard error when standard output is a terminal, each failed
/// document on standard error as it fails, and a summary of documents transferred each way,
/// failed, and the time taken.
package struct CommandReplication {
    /// The replicator to run.
    package let replicator: Replicator
    /// The direction, for the words of the summary and of errors.
    package let direction: ReplicatorType
    /// The remote URL as the person may see it (no password).
    package let url: String
    /// Whether the replicator is continuous: a line says so once it is first idle.
    package var continuous = false
    /// Whether the replicator starts from no checkpoint.
    package var reset = false
    /// Whether an unknown root certificate should suggest pinning it (no pin was given).
    package var suggestsPinning = false

    /// What the run moved.
    package struct Summary {
        /// Documents each way and failed, and the error that stopped the run early, if any.
        package let counts: BlockingReplication.Outcome
        /// The time taken.
        package let seconds: TimeInterval
        /// Bytes sent and received.
        package let bytes: Int64
        /// Documents that failed either way.
        package var failed: Int { counts.pushFailed + counts.pullFailed }
    }

    /// Makes a run of `replicator` with `url`, in `direction`.
    package init(_ replicator: Replicator, direction: ReplicatorType, url: String) {
        self.replicator = replicator
        self.direction = direction
        self.url = url
    }

    /// Runs the replicator until it stops; Ctrl-C or SIGTERM stops it (saving its checkpoint first).
    ///
    /// - Throws: ``CommandFailure`` naming why the replication stopped early.
    package func run() throws -> Summary {
        let replicator = self.replicator
        let progress = CommandOutput.isInteractive ? ReplicationProgressLine() : nil
        let announced = Locked(false)
        let signalQueue = DispatchQueue(label: "quire.db.replication.signals")
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
            source.setEventHandler { replicator.stop() }
            source.resume()
            return source
        }
        defer {
            for source in signals { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        let started = Date()
        let (url, continuous) = (self.url, self.continuous)
        let outcome = try BlockingReplication.run(
            replicator, reset: reset, timeout: nil,
            documents: { change, counts in
                for document in change.documents {
                    if let error = document.error {
                        progress?.clear()
                        FileHandle.standardError.write(
                            Data("\(document.collection) \(document.id): \(error.message)\n".utf8))
                    }
                }
                progress?.draw(counts, bytes: replicator.bytesTransferred)
            },
            status: { change in
                let activity = change.status.activity
                // The continuous run's "Replicating" line is printed once, when first idle.
                if continuous, activity == .idle,
                    announced.withLock({ done in
                        defer { done = true }
                        return !done
                    })
                {
                    progress?.clear()
                    CommandOutput.write("Replicating continuously with \(url); Ctrl-C stops.\n")
                }
                if activity != .stopped {
                    progress?.draw(nil, bytes: replicator.bytesTransferred, activity: activity)
                }
            })
        progress?.finish()
        if let error = outcome.error {
            let what: String
            switch direction {
            case .push: what = "push to"
            case .pull: what = "pull from"
            case .pushAndPull: what = "replication with"
            }
            var hint = ""
            if error.code == .tlsCertUnknownRoot, suggestsPinning {
                hint =
                    " (for a self-signed server, pin its certificate with --pinned-cert and the fingerprint quire serve prints, or trust its root with --ca FILE)"
            }
            throw CommandFailure("The \(what) \(url) stopped: \(error.message)\(hint)")
        }
        return Summary(counts: outcome, seconds: Date().timeIntervalSince(started), bytes: replicator.bytesTransferred)
    }

    /// Prints `summary` (as JSON when `json`).
    ///
    /// - Throws: ``CommandFailure`` saying how many documents failed, after the summary.
    package func report(_ summary: Summary, json: Bool) throws {
        let (counts, failed) = (summary.counts, summary.failed)
        if json {
            var object: [String: JSONValue] = [
                "direction": .string(direction == .push ? "push" : direction == .pull ? "pull" : "pushAndPull"),
                "url": .string(url), "failed": .int(Int64(failed)), "seconds": .double(summary.seconds),
                "bytes": .int(summary.bytes),
            ]
            switch direction {
            case .push: object["documents"] = .int(Int64(counts.pushed))
            case .pull: object["documents"] = .int(Int64(counts.pulled))
            case .pushAndPull:
                object["documents"] = .int(Int64(counts.pushed + counts.pulled))
                object["pushed"] = .int(Int64(counts.pushed))
                object["pulled"] = .int(Int64(counts.pulled))
            }
            try CommandOutput.json(.object(object))
        } else {
            let elapsed = String(format: "%.2f", summary.seconds) + " s, \(ReplicationProgressLine.size(summary.bytes))"
            let failures = failed > 0 ? ", \(failed) failed" : ""
            switch direction {
            case .push: CommandOutput.write("Pushed \(counts.pushed) documents to \(url) in \(elapsed)\(failures)\n")
            case .pull: CommandOutput.write("Pulled \(counts.pulled) documents from \(url) in \(elapsed)\(failures)\n")
            case .pushAndPull:
                CommandOutput.write(
                    "Pushed \(counts.pushed) and pulled \(counts.pulled) documents with \(url) in \(elapsed)\(failures)\n"
                )
            }
        }
        if failed > 0 { throw CommandFailure("\(failed) documents failed to replicate") }
    }
}
