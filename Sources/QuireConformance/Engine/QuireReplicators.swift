import Dispatch
import Foundation
import Quire
import QuireSync

/// The replicators a case holds by name (`startReplicator`), each with the document
/// replication events it reported.
final class QuireReplicators: Sendable {
    /// A held replicator and what its listeners recorded.
    final class Held: Sendable {
        let replicator: Replicator
        /// Listeners run here, in order; draining it delivers every event reported so far.
        let queue: DispatchQueue
        private let recorded = Locked([SpecValue]())
        private let tokens = Locked([ReplicatorListenerToken]())

        init(_ replicator: Replicator, name: String) {
            self.replicator = replicator
            queue = DispatchQueue(label: "Quire.Conformance.replicator.\(name)")
            let recorded = recorded
            let token = replicator.addDocumentReplicationListener(withQueue: queue) { replication in
                let events = replication.documents.map { Held.event($0, isPush: replication.isPush) }
                recorded.withLock { $0.append(contentsOf: events) }
            }
            tokens.withLock { $0.append(token) }
        }

        /// The events so far, after every reported batch has reached the listener.
        var events: [SpecValue] {
            queue.sync {}
            return recorded.withLock { $0 }
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
            let removed = tokens.withLock { tokens in
                defer { tokens.removeAll() }
                return tokens
            }
            for token in removed { token.remove() }
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

    private let held = Locked([String: Held]())

    /// Holds `replicator` under `name`; an existing one of that name is refused.
    func add(_ replicator: Replicator, name: String) throws -> Held {
        try held.withLock { held in
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
        try held.withLock { held in
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
        let all = held.withLock { held -> [Held] in
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
