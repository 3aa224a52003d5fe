import Foundation
import Quire

/// A fetched revision, or the peer's reason for not sending it.
enum FetchedRevision: Sendable {
    case revision(RemoteRevision)
    case failure(documentID: String, revisionID: String?, QuireError)
}

/// Fetches revisions with `_bulk_get`, and falls back for good to one
/// `GET /{db}/{id}?open_revs=[…]` per document when the peer does not have `_bulk_get`
/// (404, 405 or 501).
final class RevisionFetcher: @unchecked Sendable {
    private let remote: RemoteDatabase
    private let lock = NSLock()
    private var bulkGetUnavailable = false

    init(remote: RemoteDatabase) {
        self.remote = remote
    }

    /// Whether the fallback is in use.
    var usesOpenRevs: Bool { lock.withLock { bulkGetUnavailable } }

    /// Fetches `wanted` (document ID → revision IDs), with ancestry and attachments.
    func fetch(_ wanted: [(id: String, revisions: [String])]) async throws -> [FetchedRevision] {
        guard !wanted.isEmpty else { return [] }
        if !usesOpenRevs {
            let requested = wanted.flatMap { item in item.revisions.map { JSONValue.object(["id": .string(item.id), "rev": .string($0)]) } }
            let response = try await remote.send(
                "POST", "_bulk_get", query: [("revs", "true"), ("attachments", "true")],
                body: .object(["docs": .array(requested)]))
            if [404, 405, 501].contains(response.status) {
                lock.withLock { bulkGetUnavailable = true }
            } else {
                return try parseBulkGet(try remote.checked(response, "_bulk_get"), wanted: wanted)
            }
        }
        var fetched: [FetchedRevision] = []
        for item in wanted {
            fetched += try await openRevs(id: item.id, revisions: item.revisions)
        }
        return fetched
    }

    private func parseBulkGet(_ body: WireValue, wanted: [(id: String, revisions: [String])]) throws -> [FetchedRevision] {
        let asked = Set(wanted.map(\.id))
        var fetched: [FetchedRevision] = []
        for result in try body.object().required("results").array() {
            let fields = try result.object()
            let id = try RevisionFormat.documentID(try fields.required("id"))
            guard asked.contains(id) else { throw result.failure("is document '\(id.prefix(80))', which was not asked for") }
            for item in try fields.required("docs").array() {
                fetched.append(try parseEntry(item, id: id))
            }
        }
        return fetched
    }

    /// One `{"ok": doc}`, `{"error": {...}}` or `{"missing": rev}` entry.
    private func parseEntry(_ item: WireValue, id: String) throws -> FetchedRevision {
        let entry = try item.object()
        if let ok = entry.optional("ok") {
            return .revision(try RemoteRevision(ok, expectedID: id))
        }
        if let missing = entry.optional("missing") {
            let revision = try missing.string()
            return .failure(
                documentID: id, revisionID: revision,
                QuireError(.httpNotFound, "\(remote.url) no longer has revision \(revision.prefix(80)) of '\(id)'", domain: .network))
        }
        if let error = entry.optional("error") {
            let fields = try error.object()
            let kind = try fields.optional("error")?.string() ?? "error"
            let reason = try fields.optional("reason")?.string() ?? ""
            let revision = try fields.optional("rev")?.string()
            return .failure(
                documentID: id, revisionID: revision,
                QuireError(
                    .remoteError, "\(remote.url) did not send '\(id)': \(kind)\(reason.isEmpty ? "" : " (\(reason.prefix(300)))")",
                    domain: .network))
        }
        throw item.failure("has none of 'ok', 'missing' or 'error'")
    }

    private func openRevs(id: String, revisions: [String]) async throws -> [FetchedRevision] {
        let list = try JSONWriter.string(.array(revisions.map { .string($0) }))
        let response = try await remote.send(
            "GET", RemoteDatabase.encode(id),
            query: [("revs", "true"), ("open_revs", list), ("latest", "true"), ("attachments", "true")])
        if response.status == 404 {
            return revisions.map {
                .failure(
                    documentID: id, revisionID: $0,
                    QuireError(.httpNotFound, "\(remote.url) has no document '\(id)'", domain: .network))
            }
        }
        let body = try remote.checked(response, "GET \(id) open_revs")
        return try body.array().map { try parseEntry($0, id: id) }
    }
}
