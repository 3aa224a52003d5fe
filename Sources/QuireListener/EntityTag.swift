import Hummingbird

/// CouchDB's entity tags: a document's (and its attachments') `ETag` is its revision ID in
/// quotes, which clients read to learn the current revision from a `HEAD` (couchdb-python's
/// `Database.delete`, pycouchdb, aiocouch and couchdb3 all do), and `If-None-Match` with it
/// answers 304 Not Modified.
enum EntityTag {
    /// The tag of revision `revisionID`: `"1-abc"`, quotes included.
    static func of(revision revisionID: String) -> String {
        "\"\(revisionID)\""
    }

    /// Whether `If-None-Match` in `headers` names `tag` (or is `*`); weak tags (`W/"..."`)
    /// match too, as a GET compares weakly.
    static func matches(_ headers: HTTPFields, tag: String) -> Bool {
        guard let header = headers[.ifNoneMatch] else { return false }
        return header.split(separator: ",").contains { item in
            var candidate = item.trimmingCharacters(in: .whitespaces)
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            return candidate == "*" || candidate == tag
        }
    }

    /// 304 Not Modified with `tag`, when the request's `If-None-Match` names it; nil
    /// otherwise.
    static func notModified(_ headers: HTTPFields, tag: String) -> Response? {
        guard matches(headers, tag: tag) else { return nil }
        return Response(status: .notModified, headers: [.eTag: tag])
    }
}
