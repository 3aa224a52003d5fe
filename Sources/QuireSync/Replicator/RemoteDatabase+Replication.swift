import Foundation
import Quire

/// The replication steps: changes, revs-diff, uploading revisions.
extension RemoteDatabase {
    /// `GET /{db}/_changes` (POST when filtering by document IDs), checked entry by entry.
    func changes(_ request: ChangesRequest) async throws -> ChangesResponse {
        let timeout = request.feed == .longpoll ? request.timeout + requestTimeout : nil
        let response: RemoteResponse
        if let body = request.body {
            response = try await send("POST", "_changes", query: request.query, body: body, timeout: timeout)
        } else {
            response = try await send("GET", "_changes", query: request.query, timeout: timeout)
        }
        let json = try checked(response, "_changes")
        return try PeerResponse.decode("_changes response from \(url)") {
            let changes = try ChangesResponse(json: json)
            for entry in changes.results {
                try RevisionFormat.checkDocumentID(entry.id, "changes entry id")
                guard !entry.revisionIDs.isEmpty else {
                    throw QuireError(.remoteError, "changes entry '\(entry.id)' lists no revisions")
                }
                for revision in entry.revisionIDs {
                    try RevisionFormat.check(revision, "changes entry '\(entry.id)' rev")
                }
            }
            return changes
        }
    }

    /// `POST /{db}/_revs_diff`: of the revisions offered, those the remote lacks, by document
    /// (IDs told apart by their bytes, as the store tells them apart).
    func revsDiff(_ offered: [JSONKey: [String]]) async throws -> [JSONKey: [String]] {
        guard !offered.isEmpty else { return [:] }
        let json = try checked(
            try await send("POST", "_revs_diff", body: RevsDiff.Request(revisions: offered).json), "_revs_diff")
        let reply = try PeerResponse.decode("_revs_diff response from \(url)") { try RevsDiff.Response(json: json) }
        var missing: [JSONKey: [String]] = [:]
        for (id, entry) in reply.entries {
            // A peer may only call missing what was offered.
            let kept = entry.missing.filter { offered[id]?.contains($0) ?? false }
            if !kept.isEmpty { missing[id] = kept }
        }
        return missing
    }

    /// `POST /{db}/_bulk_docs` with `new_edits: false`; returns the per-document errors.
    func bulkDocs(_ documents: [JSONValue]) async throws -> [JSONKey: QuireError] {
        guard !documents.isEmpty else { return [:] }
        let json = try checked(
            try await send("POST", "_bulk_docs", body: BulkDocsRequest(docs: documents, newEdits: false).json),
            "_bulk_docs")
        let results = try PeerResponse.decode("_bulk_docs response from \(url)") {
            try BulkDocsRequest.results(json: json)
        }
        var errors: [JSONKey: QuireError] = [:]
        for case .error(let id, _, let kind, let reason) in results {
            let code: QuireError.Code =
                kind == "forbidden" ? .httpForbidden : kind == "conflict" ? .httpConflict : .remoteError
            errors[JSONKey(id)] = QuireError(
                code, "\(url) refused document '\(id)': \(kind)\(reason.isEmpty ? "" : " (\(reason.prefix(300)))")",
                domain: .network)
        }
        return errors
    }
}
