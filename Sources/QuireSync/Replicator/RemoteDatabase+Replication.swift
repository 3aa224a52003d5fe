import Foundation
import Quire

/// The replication steps: changes, revs-diff, fetching revisions, uploading them.
extension RemoteDatabase {
    /// `GET /{db}/_changes` (POST when filtering by document IDs).
    func changes(_ request: ChangesRequest) async throws -> ChangesBatch {
        let timeout = request.feed == .longpoll ? request.timeout + requestTimeout : nil
        let response: HTTPResponse
        if let body = request.body {
            response = try await send("POST", "_changes", query: request.query, body: body, timeout: timeout)
        } else {
            response = try await send("GET", "_changes", query: request.query, timeout: timeout)
        }
        return try ChangesBatch(try checked(response, "_changes"))
    }

    /// `POST /{db}/_revs_diff`: of the revisions offered, those the remote lacks, by document.
    func revsDiff(_ offered: [String: [String]]) async throws -> [String: [String]] {
        guard !offered.isEmpty else { return [:] }
        let body = JSONValue.object(offered.mapValues { .array($0.map { .string($0) }) })
        let reply = try checked(try await send("POST", "_revs_diff", body: body), "_revs_diff").object()
        var missing: [String: [String]] = [:]
        for (id, offeredRevisions) in offered {
            guard let entry = reply.optional(id) else { continue }
            let listed = try entry.object().optional("missing")?.array().map { try RevisionFormat.revisionID($0) } ?? []
            // A peer may only call missing what was offered.
            let kept = listed.filter(offeredRevisions.contains)
            if !kept.isEmpty { missing[id] = kept }
        }
        return missing
    }

    /// `POST /{db}/_bulk_docs` with `new_edits: false`; returns the per-document errors.
    func bulkDocs(_ documents: [JSONValue]) async throws -> [String: QuireError] {
        guard !documents.isEmpty else { return [:] }
        let body = JSONValue.object(["docs": .array(documents), "new_edits": false])
        let reply = try checked(try await send("POST", "_bulk_docs", body: body), "_bulk_docs")
        var errors: [String: QuireError] = [:]
        // CouchDB answers new_edits=false with [] or with one entry per document.
        guard case .array = reply.value else { return errors }
        for entry in try reply.array() {
            let fields = try entry.object()
            guard let error = fields.optional("error") else { continue }
            let id = try fields.string("id")
            let reason = try fields.optional("reason")?.string() ?? ""
            let kind = try error.string()
            let code: QuireError.Code = kind == "forbidden" ? .httpForbidden : kind == "conflict" ? .httpConflict : .remoteError
            errors[id] = QuireError(
                code, "\(url) refused document '\(id)': \(kind)\(reason.isEmpty ? "" : " (\(reason.prefix(300)))")",
                domain: .network)
        }
        return errors
    }
}
