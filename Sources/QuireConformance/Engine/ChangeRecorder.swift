import Dispatch
import Quire

/// Change listeners added by specs, each recording the document IDs it is told about.
///
/// Every listener delivers on one serial queue, and Quire enqueues a transaction's
/// notifications before the transaction's call returns, so draining that queue makes every
/// committed change visible: `changes` needs no waiting on time.
final class ChangeRecorder {
    private let queue = DispatchQueue(label: "quire.conformance.listeners")
    private let recorded = Locked<[String: [String]]>([:])
    private var tokens: [String: ListenerToken] = [:]
    /// Listeners removed by name: `changes` still reads what they were told before.
    private var removed: Set<String> = []
    /// Listeners whose token was dropped at once (`keepToken: false`): they go on hearing
    /// changes until their database closes, and cannot be removed.
    private var untracked: Set<String> = []
    /// Live query listeners' updates, and how many of each `waitForChange` has waited for.
    private let updates = QueryUpdates()
    private var waited: [String: Int] = [:]
    /// Live query listeners' query objects, by listener name.
    private var queries: [String: Query] = [:]

    /// Adds a listener named `name` to `collection` (to one document when `documentID` is set).
    func add(_ listener: Step.ChangeListener, to collection: Collection) throws {
        guard !isKnown(listener.name) else {
            throw QuireError(.invalidParameter, "a listener named '\(listener.name)' was already added")
        }
        let name = listener.name
        let recorded = self.recorded
        recorded.withLock { $0[name] = [] }
        let token: ListenerToken
        if let documentID = listener.documentID {
            token = collection.addDocumentChangeListener(id: documentID, queue: queue) { change in
                recorded.withLock { $0[name, default: []].append(change.documentID) }
            }
        } else {
            token = collection.addChangeListener(queue: queue) { change in
                recorded.withLock { $0[name, default: []].append(contentsOf: change.documentIDs) }
            }
        }
        if listener.keepsToken { tokens[name] = token } else { untracked.insert(name) }
    }

    private func isKnown(_ name: String) -> Bool {
        tokens[name] != nil || removed.contains(name) || untracked.contains(name)
    }

    /// Adds a live query listener named `name` to `query`, once its first results were
    /// delivered; each later update records its row count for ``waitForChange(_:)``.
    func add(_ listener: Step.ChangeListener, query: Query) throws {
        guard !isKnown(listener.name) else {
            throw QuireError(.invalidParameter, "a listener named '\(listener.name)' was already added")
        }
        let name = listener.name
        let updates = self.updates
        updates.record(name, rows: nil)
        tokens[name] = query.addChangeListener(queue: queue) { change in
            updates.record(name, rows: change.results?.count ?? -1)
        }
        queries[name] = query
        waited[name] = 0
        _ = try waitForChange(name)
    }

    /// The query object of the live query listener `name`.
    func query(of name: String) throws -> Query {
        guard let query = queries[name] else {
            throw QuireError(
                .invalidParameter, "no live query listener named '\(name)'; add one with addChangeListener and query")
        }
        return query
    }

    /// Waits for the live query listener `name`'s next update not yet waited for, and returns
    /// its row count (an update that reported an error is an error). The wait is bounded only
    /// as a safety net.
    func waitForChange(_ name: String) throws -> SpecValue {
        guard let seen = waited[name] else {
            throw QuireError(
                .invalidParameter, "no live query listener named '\(name)'; add one with addChangeListener and query")
        }
        guard let rows = updates.wait(name, beyond: seen, timeout: Self.waitLimit) else {
            throw QuireError(
                .timeout, "the live query listener '\(name)' got no update within \(Int(Self.waitLimit)) seconds")
        }
        waited[name] = seen + 1
        guard rows >= 0 else { throw QuireError(.unexpectedError, "the live query '\(name)' reported an error") }
        return .int(rows)
    }

    /// The safety net of ``waitForChange(_:)``, in seconds.
    static let waitLimit: Double = 30

    /// The IDs the listener `name` received, after every queued notification was delivered.
    func changes(of name: String) throws -> SpecValue {
        guard isKnown(name) else {
            throw QuireError(.invalidParameter, "no listener named '\(name)'; add it with addChangeListener first")
        }
        queue.sync {}
        if waited[name] != nil { return .array(updates.rows(name).map(SpecValue.int)) }
        return .array(recorded.withLock { $0[name] ?? [] }.map(SpecValue.string))
    }

    /// Removes the listener `name` (`token.remove()`), once every notification already queued
    /// was delivered to it; removing it again does nothing.
    func remove(_ name: String) throws {
        if removed.contains(name) { return }
        if untracked.contains(name) {
            throw QuireError(
                .invalidParameter,
                "the listener '\(name)' was added with keepToken: false; there is no token to remove it with")
        }
        guard let token = tokens.removeValue(forKey: name) else {
            throw QuireError(.invalidParameter, "no listener named '\(name)'; add it with addChangeListener first")
        }
        queue.sync {}
        token.remove()
        removed.insert(name)
    }

    /// Removes every listener.
    func removeAll() {
        tokens.values.forEach { $0.remove() }
        tokens.removeAll()
    }
}
