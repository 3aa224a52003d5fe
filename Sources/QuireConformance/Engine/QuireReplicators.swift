import Dispatch
import Foundation
import Quire
import QuireSync

/// The replicators a case holds by name (`startReplicator`), each with the document
/// replication events it reported.
final class QuireReplicators: @unchecked Sendable {
    /// A held replicator and what its listeners recorded.
    final class Held: @unchecked Sendable {
        let replicator: Replicator
        /// Listeners run here, in order; draining it delivers every event reported so far.
        let queue: DispatchQueue
        private let lock = NSLock()
        private var recorded: [SpecValue] = []
        private var tokens: [ReplicatorListenerToken] = []

        init(_ replicator: Replicator, name: String) {
            self.replicator = replicator
            queue = DispatchQueue(label: "Quire.Conformance.replicator.\(name)")
            tokens.append(
                replicator.addDocumentReplicationListener(withQueue: queue) { [weak self] replication in
                    let events = replication.documents.map { Held.event($0, isPush: replication.isPush) }
                    self?.lock.withLock { self?.recorded.append(contentsOf: events) }
                })
        }

        /// The events so far, after every reported batch has reached the listener.
        var events: [SpecValue] {
            queue.sync {}
            return lock.withLock { recorded }
        }

        /// Waits until the activity is `activity` (idle also accepts stopped, so a failed
        /// start does not hang); false when `timeout` seconds pass first.
        func wait(until activity: Replicator.ActivityLevel, timeout: TimeInterval) -> Bool {
            let reached = DispatchSemaphore(value: 0)
            let matches: @Sendable (Replicator.ActivityLevel) -> Bool = { level in
                level == activity || level == .stopped
            }
            let token = replicator.addChangeListener(withQueue: queue) { change in
                if matches(change.status.activity) { reached.signal() }
            }
            defer { token.remove() }
            if matches(replicator.status.activity) { return true }
            return reached.wait(timeout: .now() + timeout) == .success
        }

        func removeListeners() {
            for token in tokens { token.remove() }
            tokens.removeAll()
        }

        private static func event(_ document: ReplicatedDocument, isPush: Bool) -> SpecValue {
            var flags: [SpecValue] = []
            if document.flags.contains(.deleted) { flags.append("deleted") }
            if document.flags.contains(.accessRemoved) { flags.append("accessRemoved") }
            return .object([
                "id": .string(document.id), "collection": .string("\(document.scope).\(document.collection)"),
                "direction": .string(isPush ? "push" : "pull"), "flags": .array(flags),
                "error": document.error.map { .string($0.code.name) } ?? .null,
            ])
        }
    }

    private let lock = NSLock()
    private var held: [String: Held] = [:]

    /// Holds `replicator` under `name`; an existing one of that name is refused.
    func add(_ replicator: Replicator, name: String) throws -> Held {
        try lock.withLock {
            guard held[name] == nil else {
                throw EngineError.refusal(
                    "invalidSpec", "a replicator named '\(name)' was already started in this case")
            }
            let entry = Held(replicator, name: name)
            held[name] = entry
            return entry
        }
    }

    /// The replicator held as `name`.
    func named(_ name: String) throws -> Held {
        try lock.withLock {
            guard let entry = held[name] else {
                let known = held.keys.sorted()
                throw EngineError.refusal(
                    "noSuchReplicator",
                    "no replicator is held as '\(name)' (startReplicator with name: \(name) holds one)"
                        + (known.isEmpty ? "" : "; held: \(known.joined(separator: ", "))"))
            }
            return entry
        }
    }

    /// Stops every replicator and waits (boundedly) for each to stop.
    func stopAll() {
        let all = lock.withLock { () -> [Held] in
            defer { held.removeAll() }
            return Array(held.values)
        }
        for entry in all {
            entry.replicator.stop()
            _ = entry.wait(until: .stopped, timeout: 30)
            entry.removeListeners()
        }
    }
}
