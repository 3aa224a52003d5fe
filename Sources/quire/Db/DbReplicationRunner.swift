import Dispatch
import Foundation
import Quire
import QuireFixtureBuilder
import QuireSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a push, a pull or both (`--bidi`), once or until Ctrl-C (`--continuous`), drawing a
/// progress line (documents, rate) on standard error when standard output is a terminal, and
/// printing a summary: documents transferred each way, failed, and the time taken.
enum DbReplicationRunner {
    /// Runs `options`' replication of `target` in `direction` and prints the summary.
    ///
    /// - Throws: ``CommandFailure`` naming why the replication stopped early, or how many documents failed.
    static func run(
        _ direction: ReplicatorType, target: DbDatabaseArgument, options: DbReplicationOptions, filter: String? = nil
    ) throws {
        let url = options.displayURL
        let effective: ReplicatorType = options.bidi ? .pushAndPull : direction
        let (counts, seconds, bytes) = try target.with { database in
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
                for: database, direction: direction, filter: filter, createMissing: effective != .push,
                created: &created)
            let replicator = Replicator(config: config)
            let progress = ProgressLine(shown: CommandOutput.isInteractive)
            let announced = Announcement()
            // Ctrl-C or SIGTERM stops the replicator, which saves its checkpoint first.
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
            let outcome = try BlockingReplication.run(
                replicator, reset: options.reset, timeout: nil,
                documents: { change, counts in
                    for document in change.documents {
                        if let error = document.error {
                            progress.clear()
                            FileHandle.standardError.write(
                                Data("\(document.collection) \(document.id): \(error.message)\n".utf8))
                        }
                    }
                    progress.draw(counts, bytes: replicator.bytesTransferred)
                },
                status: { change in
                    let activity = change.status.activity
                    if options.continuous, activity == .idle, announced.first() {
                        progress.clear()
                        CommandOutput.write("Replicating continuously with \(url); Ctrl-C stops.\n")
                    }
                    if activity != .stopped {
                        progress.draw(nil, bytes: replicator.bytesTransferred, activity: activity)
                    }
                })
            progress.finish()
            if let error = outcome.error {
                let what: String
                switch effective {
                case .push: what = "push to"
                case .pull: what = "pull from"
                case .pushAndPull: what = "replication with"
                }
                var hint = ""
                if error.code == .tlsCertUnknownRoot, options.pinnedCertificate == nil {
                    hint =
                        " (for a self-signed server, pin its certificate with --pinned-cert and the fingerprint quire serve prints, or trust its root with --ca FILE)"
                }
                throw CommandFailure("The \(what) \(url) stopped: \(error.message)\(hint)")
            }
            succeeded = true
            return (outcome, Date().timeIntervalSince(started), replicator.bytesTransferred)
        }
        let failed = counts.pushFailed + counts.pullFailed
        if options.json {
            var summary: [String: JSONValue] = [
                "direction": .string(effective == .push ? "push" : effective == .pull ? "pull" : "pushAndPull"),
                "url": .string(url), "failed": .int(Int64(failed)), "seconds": .double(seconds),
                "bytes": .int(bytes),
            ]
            switch effective {
            case .push: summary["documents"] = .int(Int64(counts.pushed))
            case .pull: summary["documents"] = .int(Int64(counts.pulled))
            case .pushAndPull:
                summary["documents"] = .int(Int64(counts.pushed + counts.pulled))
                summary["pushed"] = .int(Int64(counts.pushed))
                summary["pulled"] = .int(Int64(counts.pulled))
            }
            try CommandOutput.json(.object(summary))
        } else {
            let elapsed = String(format: "%.2f", seconds) + " s, \(ProgressLine.size(bytes))"
            let failures = failed > 0 ? ", \(failed) failed" : ""
            switch effective {
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

    /// True the first time only: the continuous run's "Replicating" line is printed once.
    private final class Announcement: Sendable {
        private let done = Locked(false)

        func first() -> Bool {
            done.withLock { done in
                defer { done = true }
                return !done
            }
        }
    }

    /// The line redrawn on standard error while documents move: activity, documents each way,
    /// failures, bytes and the rate, `busy  pushed 1200  pulled 40  2.1 MiB  (310 docs/s)`; at
    /// most ten times a second. Used on the listener queue only.
    private final class ProgressLine: @unchecked Sendable {
        // Safe: touched only on the replication's listener queue (and after it is drained).
        private let shown: Bool
        private let started = Date()
        private var lastDrawn = Date.distantPast
        private var activity: Replicator.ActivityLevel = .connecting
        private var counts = BlockingReplication.Outcome()
        private var drawn = false

        init(shown: Bool) { self.shown = shown }

        /// Redraws with `counts` (the last ones given when nil) and `activity`.
        func draw(
            _ counts: BlockingReplication.Outcome?, bytes: Int64, activity: Replicator.ActivityLevel? = nil
        ) {
            guard shown else { return }
            if let activity { self.activity = activity }
            if let counts { self.counts = counts }
            let now = Date()
            guard now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
            lastDrawn = now
            let counts = self.counts
            let moved = counts.pushed + counts.pulled
            let rate = Double(moved) / max(now.timeIntervalSince(started), 0.001)
            let failed = counts.pushFailed + counts.pullFailed
            let text =
                "\r\(self.activity)  pushed \(counts.pushed)  pulled \(counts.pulled)"
                + (failed > 0 ? "  failed \(failed)" : "")
                + "  \(ProgressLine.size(bytes))  (\(Int(rate.rounded())) docs/s)\u{1b}[K"
            FileHandle.standardError.write(Data(text.utf8))
            drawn = true
        }

        /// `bytes` as people read sizes: `812 B`, `4.2 KiB`, `12.5 MiB`, `1.3 GiB`.
        static func size(_ bytes: Int64) -> String {
            let units = ["KiB", "MiB", "GiB", "TiB"]
            guard bytes >= 1024 else { return "\(bytes) B" }
            var value = Double(bytes) / 1024
            var unit = 0
            while value >= 1024, unit < units.count - 1 {
                value /= 1024
                unit += 1
            }
            return String(format: "%.1f", value) + " " + units[unit]
        }

        func clear() {
            guard shown, drawn else { return }
            FileHandle.standardError.write(Data("\r\u{1b}[K".utf8))
        }

        func finish() {
            guard shown, drawn else { return }
            FileHandle.standardError.write(Data("\n".utf8))
            drawn = false
        }
    }
}
