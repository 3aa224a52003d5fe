import Foundation
import NIOCore
import Quire
import QuireSync

/// The change signals of the feeds in progress, so stopping the listener ends them all, and
/// closing a connection ends the feeds on it.
///
/// Signals are held weakly: a feed whose response is dropped before it runs (the client left
/// first) leaves nothing behind. Each connection with a feed is watched once, however many
/// feeds it serves one after the other.
///
/// While any feed is in progress, a thread of the registry reads the last sequence of each
/// collection with a feed every ``pollInterval`` (one indexed read per collection) and hands
/// it to the feeds' signals, so commits made by another process wake them too.
final class FeedRegistry: Sendable {
    private struct Entry {
        weak var signal: ChangeSignal?
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var closed = false
        /// Whether the polling thread runs.
        var polling = false
        /// The watched connections, by identity: their feeds, and whether their client has
        /// closed its side. Removed when the connection closes.
        var connections: [ObjectIdentifier: Watched] = [:]
    }

    private let state = Locked(State())
    /// How often the polling thread looks for commits made by other processes.
    let pollInterval: Duration

    /// A registry polling for other processes' commits every `pollInterval`.
    init(pollInterval: Duration = .milliseconds(500)) {
        self.pollInterval = pollInterval
    }

    private struct Watched {
        var feeds: [ObjectIdentifier: Entry] = [:]
        var inputClosed = false
    }

    /// Tracks `signal` until ``remove(_:)``; a signal added after ``endAll()`` ends at once.
    func add(_ signal: ChangeSignal) {
        let isClosed = state.withLock { state in
            if !state.closed {
                state.entries = state.entries.filter { $0.value.signal != nil }
                state.entries[ObjectIdentifier(signal)] = Entry(signal: signal)
            }
            return state.closed
        }
        if isClosed { signal.end() }
        startPolling()
    }

    /// Tracks `signal` like ``add(_:)`` and ends it when `connection` closes or its client
    /// closes its side (at once when that already happened); the connection stays open when
    /// the feed ends first.
    func add(_ signal: ChangeSignal, endingWith connection: (any Channel)?) {
        add(signal)
        guard let connection else { return }
        let (isNew, inputClosed) = state.withLock { state -> (Bool, Bool) in
            let key = ObjectIdentifier(connection)
            let isNew = state.connections[key] == nil
            state.connections[key, default: Watched()].feeds[ObjectIdentifier(signal)] = Entry(signal: signal)
            return (isNew, state.connections[key]?.inputClosed ?? false)
        }
        if isNew { watch(connection) }
        if inputClosed { signal.end() }
    }

    /// Ends the feeds in progress on `connection`, and those it starts later: its client
    /// closed its side.
    func endFeeds(of connection: any Channel) {
        let (isNew, signals) = state.withLock { state -> (Bool, [ChangeSignal]) in
            let key = ObjectIdentifier(connection)
            let isNew = state.connections[key] == nil
            state.connections[key, default: Watched()].inputClosed = true
            return (isNew, state.connections[key]?.feeds.values.compactMap(\.signal) ?? [])
        }
        if isNew { watch(connection) }
        signals.forEach { $0.end() }
    }

    /// Stops tracking `signal`.
    func remove(_ signal: ChangeSignal) {
        state.withLock { state in
            let key = ObjectIdentifier(signal)
            state.entries.removeValue(forKey: key)
            for connection in state.connections.keys { state.connections[connection]?.feeds.removeValue(forKey: key) }
        }
    }

    /// Forgets `connection` and ends its feeds when it closes (at once when it is closed).
    private func watch(_ connection: any Channel) {
        let key = ObjectIdentifier(connection)
        connection.closeFuture.whenComplete { [weak self] _ in
            guard let self else { return }
            let signals = state.withLock { state in
                state.connections.removeValue(forKey: key)?.feeds.values.compactMap(\.signal) ?? []
            }
            signals.forEach { $0.end() }
        }
    }

    /// Ends every feed, and every feed that starts afterwards.
    func endAll() {
        let all = state.withLock { state in
            state.closed = true
            return state.entries.values.compactMap(\.signal)
        }
        all.forEach { $0.end() }
    }

    /// Starts the polling thread unless it runs; it ends once no feed is left or the
    /// registry is closed.
    private func startPolling() {
        let start = state.withLock { state -> Bool in
            guard !state.closed, !state.polling else { return false }
            state.polling = true
            return true
        }
        guard start else { return }
        let (seconds, attoseconds) = pollInterval.components
        let interval = max(0.01, Double(seconds) + Double(attoseconds) / 1e18)
        let thread = Thread { [weak self] in
            while true {
                Thread.sleep(forTimeInterval: interval)
                guard let self, let signals = self.signalsToPoll() else { return }
                // One read per collection, however many feeds follow it.
                var byCollection: [ObjectIdentifier: (Collection, [ChangeSignal])] = [:]
                for signal in signals {
                    byCollection[ObjectIdentifier(signal.collection), default: (signal.collection, [])].1.append(signal)
                }
                for (collection, signals) in byCollection.values {
                    guard let last = try? collection.lastSequence() else { continue }
                    signals.forEach { $0.noteLastSequence(last) }
                }
            }
        }
        thread.name = "quire.listener.feed-poll"
        thread.start()
    }

    /// The live signals, or nil (and polling marked stopped) when there are none or the
    /// registry is closed.
    private func signalsToPoll() -> [ChangeSignal]? {
        state.withLock { state -> [ChangeSignal]? in
            let signals = state.entries.values.compactMap(\.signal)
            guard !state.closed, !signals.isEmpty else {
                state.polling = false
                return nil
            }
            return signals
        }
    }

    /// The number of feeds in progress.
    var count: Int { state.withLock { state in state.entries.values.filter { $0.signal != nil }.count } }
}
