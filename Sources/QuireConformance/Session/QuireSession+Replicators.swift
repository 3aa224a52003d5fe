import Dispatch
import Foundation
import Quire
import QuireSync

/// The held-replicator steps (``Step/ReplicatorOperation``) on the Quire engine.
extension QuireSession {
    /// How long a wait step waits before it fails; only a safety net, since each wait ends
    /// on the event it waits for.
    static let replicatorWaitLimit: TimeInterval = 120

    func replicator(_ operation: Step.ReplicatorOperation) throws -> SpecValue? {
        switch operation {
        case .start(let settings):
            let database = try settings.database.map { try self.database(named: $0) } ?? current
            var config = ReplicatorConfiguration(target: URLEndpoint(url: try url(settings.url)))
            switch settings.type {
            case .push: config.replicatorType = .push
            case .pull: config.replicatorType = .pull
            case .pushAndPull: config.replicatorType = .pushAndPull
            }
            config.continuous = settings.continuous
            config.enableAutoPurge = settings.enableAutoPurge
            config.maxAttempts = 3
            config.maxAttemptWaitTime = 2
            for entry in settings.collections {
                var options = CollectionConfiguration(channels: entry.channels, documentIDs: entry.documentIDs)
                options.pushFilter = entry.pushFilter.map(QuireSession.filter)
                options.pullFilter = entry.pullFilter.map(QuireSession.filter)
                options.conflictResolver = entry.conflictResolver.map(SpecResolver.init)
                config.addCollection(try collection(entry.collection, in: database), config: options)
            }
            let held = try replicators.add(Replicator(config: config), name: settings.name)
            held.replicator.start(reset: settings.reset)
            return nil
        case .wait(let name, let activity):
            let held = try replicators.named(name)
            let level: Replicator.ActivityLevel = activity == "idle" ? .idle : .stopped
            guard held.wait(until: level, timeout: QuireSession.replicatorWaitLimit) else {
                throw QuireError(
                    .timeout,
                    "replicator '\(name)' did not become \(activity) within \(Int(QuireSession.replicatorWaitLimit)) s",
                    domain: .network)
            }
            let status = held.replicator.status
            return .object([
                "activity": .string(status.activity.description),
                "error": status.error.map { .string($0.message) } ?? .null,
                "errorCode": status.error.map { .string($0.code.name) } ?? .null,
            ])
        case .stop(let name):
            let held = try replicators.named(name)
            held.replicator.stop()
            guard held.wait(until: .stopped, timeout: QuireSession.replicatorWaitLimit) else {
                throw QuireError(.timeout, "replicator '\(name)' did not stop", domain: .network)
            }
            return nil
        case .pendingDocumentIDs(let name, let collectionName):
            let held = try replicators.named(name)
            let ids = try held.replicator.pendingDocumentIds(
                collection: try replicatedCollection(collectionName, of: held))
            return .array(ids.sorted().map(SpecValue.string))
        case .isDocumentPending(let name, let id, let collectionName):
            let held = try replicators.named(name)
            return .bool(
                try held.replicator.isDocumentPending(
                    id, collection: try replicatedCollection(collectionName, of: held)))
        case .events(let name):
            return .array(try replicators.named(name).events)
        case .waitForDocument(let wait):
            return try waitForDocument(wait)
        }
    }

    /// The replicated collection of that name (from the replicator's own database).
    private func replicatedCollection(_ name: CollectionName, of held: QuireReplicators.Held) throws -> Collection {
        guard let collection = held.replicator.config.collections.first(where: { $0.fullName == name.fullName }) else {
            throw QuireError(.invalidParameter, "collection \(name.fullName) is not in the replicator's configuration")
        }
        return collection
    }

    /// Waits for a document to reach a state, woken by the collection's change listener.
    private func waitForDocument(_ wait: Step.WaitForDocument) throws -> SpecValue {
        let database = try wait.database.map { try self.database(named: $0) } ?? current
        let collection = try collection(wait.document.collection, in: database)
        let id = wait.document.id
        let check = { () throws -> String? in
            guard let info = try collection.revisionInfo(id: id), info.isDeleted == wait.deleted else { return nil }
            if let key = wait.key, let expected = wait.equals {
                guard let document = try collection.document(id: id) else { return nil }
                let actual = JSONValue(any: document.value(forKey: key) as Any).map(SpecValue.init(json:)) ?? .null
                guard ValueMatcher.mismatch(expected: expected, actual: actual, partial: false) == nil else {
                    return nil
                }
            }
            return info.revisionID
        }
        let changed = DispatchSemaphore(value: 0)
        let token = collection.addDocumentChangeListener(id: id, listener: { _ in changed.signal() })
        defer { token.remove() }
        let deadline = Date().addingTimeInterval(QuireSession.replicatorWaitLimit)
        while true {
            if let revision = try check() { return .string(revision) }
            // Each change wakes the check; the one-second wake-up only guards against a change
            // committed between the check and the wait.
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                throw QuireError(
                    .timeout,
                    "document '\(id)' in \(collection.fullName) did not arrive within \(Int(QuireSession.replicatorWaitLimit)) s",
                    domain: .network)
            }
            _ = changed.wait(timeout: .now() + min(left, 1))
        }
    }

    /// A replication filter from its spec form: every condition given must hold.
    static func filter(_ spec: Step.DocumentFilter) -> ReplicationFilter {
        { document, flags in
            if let ids = spec.documentIDs, !ids.contains(document.id) { return false }
            if let deleted = spec.deleted, flags.contains(.deleted) != deleted { return false }
            if let removed = spec.accessRemoved, flags.contains(.accessRemoved) != removed { return false }
            if let key = spec.key, let expected = spec.equals {
                let actual = JSONValue(any: document.value(forKey: key) as Any).map(SpecValue.init(json:)) ?? .null
                if ValueMatcher.mismatch(expected: expected, actual: actual, partial: false) != nil { return false }
            }
            return true
        }
    }
}

/// A conflict resolver from its spec form.
struct SpecResolver: ConflictResolverProtocol {
    let rule: Step.ResolverRule

    init(_ rule: Step.ResolverRule) { self.rule = rule }

    func resolve(conflict: Conflict) -> Document? {
        switch rule {
        case .localWins: return conflict.localDocument
        case .remoteWins: return conflict.remoteDocument
        case .delete: return nil
        case .merge(let keys):
            guard let local = conflict.localDocument else { return conflict.remoteDocument }
            let merged = local.toMutable()
            for key in keys {
                if let value = conflict.remoteDocument?.value(forKey: key) {
                    merged.setValue(value, forKey: key)
                } else {
                    merged.removeValue(forKey: key)
                }
            }
            return merged
        }
    }
}
