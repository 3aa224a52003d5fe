import Foundation
import Quire

/// Fetches revisions with `_bulk_get?revs=true&attachments=true`, and falls back for good to
/// one `GET /{db}/{id}?revs=true&open_revs=[…]&latest=true&attachments=true` per document
/// when the peer has no `_bulk_get` (404, 405 or 501).
final class RevisionFetcher: Sendable {
    private let remote: RemoteDatabase
    private let bulkGetUnavailable = Locked(false)

    init(remote: RemoteDatabase) {
        self.remote = remote
    }

    /// Whether the fallback is in use.
    var usesOpenRevs: Bool { bulkGetUnavailable.withLock { $0 } }

    /// Fetches `wanted` (document ID → revision IDs), with ancestry and attachments.
    func fetch(_ wanted: [(id: String, revisions: [String])]) async throws -> [FetchedRevision] {
        guard !wanted.isEmpty else { return [] }
        if !usesOpenRevs {
            let request = BulkGetRequest(
                items: wanted.flatMap { item in item.revisions.map { BulkGetRequest.Item(id: item.id, revisionID: $0) }
                })
            let response = try await remote.send(
                "POST", "_bulk_get", query: [("revs", "true"), ("attachments", "true")], body: request.json)
            if [404, 405, 501].contains(response.status) {
                bulkGetUnavailable.withLock { $0 = true }
            } else {
                return try parseBulkGet(try remote.checked(response, "_bulk_get"), wanted: wanted)
            }
        }
        var fetched: [FetchedRevision] = []
        for item in wanted {
            try Task.checkCancellation()
            fetched += try await openRevs(id: item.id, revisions: item.revisions)
        }
        return fetched
    }

    private func parseBulkGet(_ json: JSONValue, wanted: [(id: String, revisions: [String])]) throws
        -> [FetchedRevision]
    {
        let context = "_bulk_get response from \(remote.url)"
        let response = try PeerResponse.decode(context) { try BulkGetResponse(json: json) }
        let asked = Set(wanted.map { JSONKey($0.id) })
        var fetched: [FetchedRevision] = []
        for result in response.results {
            guard asked.contains(JSONKey(result.id)) else {
                throw PeerResponse.malformed(
                    context, "it sent document '\(result.id.prefix(80))', which was not asked for")
            }
            for item in result.docs {
                switch item {
                case .ok(let document):
                    fetched.append(.revision(try PulledRevision(document, expectedID: result.id, context: context)))
                case .error(_, let revision, let error, let reason):
                    fetched.append(.failure(documentID: result.id, failure(result.id, revision, error, reason)))
                }
            }
        }
        return fetched
    }

    private func failure(_ id: String, _ revision: String?, _ error: String, _ reason: String) -> QuireError {
        let code: QuireError.Code = error == "not_found" || error == "missing" ? .httpNotFound : .remoteError
        let what = revision.map { "revision \($0.prefix(80)) of '\(id)'" } ?? "'\(id)'"
        return QuireError(
            code, "\(remote.url) did not send \(what): \(error)\(reason.isEmpty ? "" : " (\(reason.prefix(300)))")",
            domain: .network)
    }

    private func openRevs(id: String, revisions: [String]) async throws -> [FetchedRevision] {
        let list = try JSONWriter.string(.array(revisions.map { .string($0) }))
        let response = try await remote.send(
            "GET", RemoteDatabase.encode(id),
            query: [("revs", "true"), ("open_revs", list), ("latest", "true"), ("attachments", "true")])
        if response.status == 404 {
            return [.failure(documentID: id, failure(id, nil, "not_found", ""))]
        }
        let context = "open_revs response for '\(id)' from \(remote.url)"
        let json = try remote.checked(response, "GET \(id)?open_revs")
        guard let items = json.arrayValue else {
            throw PeerResponse.malformed(context, "the body is \(PeerResponse.describe(json)), expected an array")
        }
        return try items.enumerated().map { index, item in
            if let document = item["ok"] {
                return .revision(try PulledRevision(document, expectedID: id, context: context))
            }
            if let missing = item["missing"] {
                return .failure(documentID: id, failure(id, missing.stringValue, "missing", ""))
            }
            throw PeerResponse.malformed(context, "entry \(index) has neither 'ok' nor 'missing'")
        }
    }
}
