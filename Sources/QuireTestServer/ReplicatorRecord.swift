import Dispatch
import Foundation
import Quire
import QuireSync

/// A replicator started through `/startReplicator`, with the documents its listener saw
/// since the last `/getReplicatorStatus` (when the client asked for them); or one that
/// stopped as it started, with the error that stopped it (an endpoint Quire cannot reach).
final class ReplicatorRecord: Sendable {
    /// The replicator; nil when it stopped as it started.
    let replicator: Replicator?
    let collectsDocuments: Bool
    /// Why a replicator stopped as it started.
    let failure: TestServerError?
    private let queue = DispatchQueue(label: "Quire.TestServer.replicator")
    private let documents = Locked([JSONValue]())
    private let token: ReplicatorListenerToken?

    /// A replicator that stopped as it started: its status is STOPPED with `failure`.
    init(failure: TestServerError) {
        replicator = nil
        collectsDocuments = false
        self.failure = failure
        token = nil
    }

    init(replicator: Replicator, collectsDocuments: Bool) {
        self.replicator = replicator
        self.collectsDocuments = collectsDocuments
        failure = nil
        guard collectsDocuments else {
            token = nil
            return
        }
        let documents = documents
        token = replicator.addDocumentReplicationListener(withQueue: queue) { change in
            let entries = change.documents.map { document -> JSONValue in
                var entry: [String: JSONValue] = [
                    "collection": .string("\(document.scope).\(document.collection)"),
                    "documentID": .string(document.id),
                    "isPush": .bool(change.isPush),
                    "flags": .array(
                        (document.flags.contains(.deleted) ? ["deleted"] : [])
                            + (document.flags.contains(.accessRemoved) ? ["accessRemoved"] : [])),
                ]
                if let error = document.error { entry["error"] = TestServerError.store(error).body }
                return .object(entry)
            }
            documents.withLock { $0.append(contentsOf: entries) }
        }
    }

    deinit { token?.remove() }

    /// The protocol's `ReplicatorStatus`; the documents reported are forgotten.
    func status() -> JSONValue {
        guard let replicator else {
            return .object([
                "activity": "STOPPED", "progress": .object(["completed": false]),
                "error": failure?.body ?? .null,
            ])
        }
        let status = replicator.status
        var body: [String: JSONValue] = [
            "activity": .string(status.activity.description.uppercased()),
            "progress": .object([
                "completed": .bool(
                    (status.activity == .stopped || status.activity == .idle)
                        && status.progress.completed >= status.progress.total)
            ]),
        ]
        if let error = status.error { body["error"] = TestServerError.store(error).body }
        if collectsDocuments {
            // Batches the replicator reported before this status are queued ahead of this.
            queue.sync {}
            let reported = documents.withLock { documents -> [JSONValue] in
                defer { documents.removeAll() }
                return documents
            }
            body["documents"] = .array(reported)
        }
        return .object(body)
    }
}
