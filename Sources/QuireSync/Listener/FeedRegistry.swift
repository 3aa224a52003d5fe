import Foundation

/// The change signals of the feeds in progress, so stopping the listener ends them all.
final class FeedRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var signals: [ObjectIdentifier: ChangeSignal] = [:]
    private var closed = false

    /// Tracks `signal` until ``remove(_:)``; a signal added after ``endAll()`` ends at once.
    func add(_ signal: ChangeSignal) {
        let isClosed = lock.withLock {
            if !closed { signals[ObjectIdentifier(signal)] = signal }
            return closed
        }
        if isClosed { signal.end() }
    }

    /// Stops tracking `signal`.
    func remove(_ signal: ChangeSignal) {
        _ = lock.withLock { signals.removeValue(forKey: ObjectIdentifier(signal)) }
    }

    /// Ends every feed, and every feed that starts afterwards.
    func endAll() {
        let all = lock.withLock {
            closed = true
            return Array(signals.values)
        }
        all.forEach { $0.end() }
    }

    /// The number of feeds in progress.
    var count: Int { lock.withLock { signals.count } }
}
