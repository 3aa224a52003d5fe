import Foundation

/// The change signals of the feeds in progress, so stopping the listener ends them all.
///
/// Signals are held weakly: a feed whose response is dropped before it runs (the client left
/// first) leaves nothing behind.
final class FeedRegistry: @unchecked Sendable {
    private struct Entry {
        weak var signal: ChangeSignal?
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var closed = false

    /// Tracks `signal` until ``remove(_:)``; a signal added after ``endAll()`` ends at once.
    func add(_ signal: ChangeSignal) {
        let isClosed = lock.withLock {
            if !closed {
                entries = entries.filter { $0.value.signal != nil }
                entries[ObjectIdentifier(signal)] = Entry(signal: signal)
            }
            return closed
        }
        if isClosed { signal.end() }
    }

    /// Stops tracking `signal`.
    func remove(_ signal: ChangeSignal) {
        _ = lock.withLock { entries.removeValue(forKey: ObjectIdentifier(signal)) }
    }

    /// Ends every feed, and every feed that starts afterwards.
    func endAll() {
        let all = lock.withLock {
            closed = true
            return entries.values.compactMap(\.signal)
        }
        all.forEach { $0.end() }
    }

    /// The number of feeds in progress.
    var count: Int { lock.withLock { entries.values.filter { $0.signal != nil }.count } }
}
