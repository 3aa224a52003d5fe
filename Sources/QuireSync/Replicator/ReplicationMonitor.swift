import Foundation
import Quire

/// What one run of a replicator reports back: its workers' activity, progress, replicated
/// documents and checkpoint reports. The run's overall activity is busy while any worker is
/// busy and idle once all are caught up.
final class ReplicationMonitor: Sendable {
    private struct State {
        var busyWorkers: Set<String> = []
        var completed: UInt64 = 0
        var total: UInt64 = 0
        var progressMade = false
        var connected = false
    }

    let generation: Int
    // Strong: a running replicator stays alive until it stops, as in Couchbase Lite.
    private let replicator: Replicator
    private let state = Locked(State())

    /// Counts body bytes sent or received for the replicator's ``Replicator/bytesTransferred``.
    func countTransferred(_ count: Int64) { replicator.countTransferred(count) }

    /// Stops the replicator (its database is closing).
    func stopReplicator() { replicator.stop() }

    /// Keeps the certificate an HTTPS peer presented as the replicator's `serverCertificate`.
    func serverPresented(_ certificate: Data) { replicator.presentedCertificate.withLock { $0 = certificate } }

    init(replicator: Replicator, generation: Int) {
        self.replicator = replicator
        self.generation = generation
    }

    private func publish(_ activity: Replicator.ActivityLevel? = nil, error: QuireError?) {
        let (done, all, busy, isConnected) = state.withLock {
            ($0.completed, $0.total, !$0.busyWorkers.isEmpty, $0.connected)
        }
        let level = activity ?? (isConnected ? (busy ? .busy : .idle) : .connecting)
        replicator.update(generation: generation) {
            $0 = Replicator.Status(
                activity: level, progress: Replicator.Progress(completed: done, total: all), error: error)
        }
    }

    func connecting() {
        state.withLock { state in
            state.connected = false
            state.busyWorkers = []
        }
        publish(.connecting, error: nil)
    }

    func offline(_ error: QuireError) {
        state.withLock { state in
            state.connected = false
            state.busyWorkers = []
        }
        publish(.offline, error: error)
    }

    func connected(workers: [String]) {
        state.withLock { state in
            state.connected = true
            state.busyWorkers = Set(workers)
        }
        publish(error: nil)
    }

    func finish(_ error: QuireError?) {
        publish(.stopped, error: error)
    }

    func busy(_ worker: String) {
        let changed = state.withLock { $0.busyWorkers.insert(worker).inserted }
        if changed { publish(error: nil) }
    }

    func idle(_ worker: String) {
        let changed = state.withLock { $0.busyWorkers.remove(worker) != nil }
        if changed { publish(error: nil) }
    }

    func found(_ count: Int) {
        guard count > 0 else { return }
        state.withLock { $0.total += UInt64(count) }
        publish(error: nil)
    }

    func processed(_ count: Int) {
        guard count > 0 else { return }
        state.withLock { $0.completed += UInt64(count) }
        publish(error: nil)
    }

    /// A checkpoint was saved: the connection works, so failures start counting afresh.
    func savedCheckpoint() {
        state.withLock { $0.progressMade = true }
    }

    /// Whether a checkpoint was saved since the last call.
    func takeProgress() -> Bool {
        state.withLock { state in
            defer { state.progressMade = false }
            return state.progressMade
        }
    }

    func replicated(_ documents: [ReplicatedDocument], isPush: Bool) {
        replicator.deliver(generation: generation, documents: documents, isPush: isPush)
    }

    func report(_ report: CheckpointReport, for collection: Collection) {
        replicator.record(generation: generation, report: report, for: collection)
    }
}
