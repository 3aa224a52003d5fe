import Foundation
import QuireSync

/// The line redrawn on standard error while documents move: activity, documents each way,
/// failures, bytes and the rate, `busy  pushed 1200  pulled 40  2.1 MiB  (310 docs/s)`; at
/// most ten times a second, drawn by a ``TerminalProgressBar`` (a replication has no total
/// to show a bar for).
final class ReplicationProgressLine: @unchecked Sendable {
    // Safe: touched only on the replication's listener queue (and after it is drained).
    private let line = TerminalProgressBar()
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private var activity: Replicator.ActivityLevel = .connecting
    private var counts = BlockingReplication.Outcome()

    /// Redraws with `counts` (the last ones given when nil) and `activity`.
    func draw(_ counts: BlockingReplication.Outcome?, bytes: Int64, activity: Replicator.ActivityLevel? = nil) {
        if let activity { self.activity = activity }
        if let counts { self.counts = counts }
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        lastDrawn = now
        let counts = self.counts
        let moved = counts.pushed + counts.pulled
        let rate = Double(moved) / max(now.timeIntervalSince(started), 0.001)
        let failed = counts.pushFailed + counts.pullFailed
        line.show(
            "\(self.activity)  pushed \(counts.pushed)  pulled \(counts.pulled)"
                + (failed > 0 ? "  failed \(failed)" : "")
                + "  \(Self.size(bytes))  (\(Int(rate.rounded())) docs/s)")
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

    /// Clears the line, so a message can take its place; the next draw brings it back.
    func clear() { line.clear() }

    /// Ends the line, if one was drawn.
    func finish() { line.finish() }
}
