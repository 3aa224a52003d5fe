import Foundation
import NIOCore

/// The change signals of the feeds in progress, so stopping the listener ends them all, and
/// closing a connection ends the feeds on it.
///
/// Signals are held weakly: a feed whose response is dropped before it runs (the client left
/// first) leaves nothing behind. Each connection with a feed is watched once, however many
/// feeds it serves one after the other.
final class FeedRegistry: @unchecked Sendable {
    private struct Entry {
        weak var signal: ChangeSignal?
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var closed = false
    /// The feeds of each watched connection, by the connection's identity.
    private var connections: [ObjectIdentifier: [ObjectIdentifier: Entry]] = [:]

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

    /// Tracks `signal` like ``add(_:)`` and ends it when `connection` closes (the client went
    /// away); the connection stays open when the feed ends first.
    func add(_ signal: ChangeSignal, endingWith connection: (any Channel)?) {
        add(signal)
        guard let connection else { return }
        let key = ObjectIdentifier(connection)
        let isFirst = lock.withLock { () -> Bool in
            let isFirst = connections[key] == nil
            connections[key, default: [:]][ObjectIdentifier(signal)] = Entry(signal: signal)
            return isFirst
        }
        guard isFirst else { return }
        // Runs at once when the connection is already closed.
        connection.closeFuture.whenComplete { [weak self] _ in self?.connectionClosed(key) }
    }

    /// Stops tracking `signal`.
    func remove(_ signal: ChangeSignal) {
        lock.withLock {
            let key = ObjectIdentifier(signal)
            entries.removeValue(forKey: key)
            for connection in connections.keys { connections[connection]?.removeValue(forKey: key) }
        }
    }

    private func connectionClosed(_ key: ObjectIdentifier) {
        let signals = lock.withLock { connections.removeValue(forKey: key)?.values.compactMap(\.signal) ?? [] }
        signals.forEach { $0.end() }
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
