import Quire

/// CouchDB's `_revisions` member: a revision's ancestry as the generation of the newest
/// revision and the digests of it and its ancestors, newest first.
///
/// `{"start": 3, "ids": ["c3", "b2", "a1"]}` stands for `3-c3`, `2-b2`, `1-a1`.
package struct RevisionsField: Equatable, Sendable {
    /// The generation of the first (newest) ID.
    package var start: Int
    /// Digests, newest first, one per generation going down from ``start``.
    package var ids: [String]

    /// A field from its parts.
    package init(start: Int, ids: [String]) {
        self.start = start
        self.ids = ids
    }

    /// The field for `revisionID` and its ancestors (newest first). Ancestors stop at the
    /// first one whose generation does not follow on, since `_revisions` cannot express a gap.
    package init(revisionID: String, ancestors: [String]) throws {
        guard let (generation, digest) = RevisionsField.split(revisionID) else {
            throw QuireError(.badRevisionID, "invalid revision ID '\(revisionID)': expected '<generation>-<digest>'")
        }
        var ids = [digest]
        for ancestor in ancestors {
            guard let (ancestorGeneration, ancestorDigest) = RevisionsField.split(ancestor),
                ancestorGeneration == generation - ids.count
            else { break }
            ids.append(ancestorDigest)
        }
        self.init(start: generation, ids: ids)
    }

    /// Reads `{"start": N, "ids": [...]}`.
    package init(json: JSONValue) throws {
        guard let start = json["start"]?.intValue, start > 0, start <= RevisionID.maximumGeneration else {
            throw WireError.invalid(
                "_revisions", "'start' must be an integer from 1 to \(RevisionID.maximumGeneration)")
        }
        guard let list = json["ids"]?.arrayValue, !list.isEmpty else {
            throw WireError.invalid("_revisions", "'ids' must be a non-empty array of strings")
        }
        guard list.count <= start else {
            throw WireError.invalid("_revisions", "\(list.count) ids cannot go down from generation \(start)")
        }
        var ids: [String] = []
        ids.reserveCapacity(list.count)
        for item in list {
            guard let id = item.stringValue, RevisionID.isValidSuffix(Substring(id)) else {
                throw WireError.invalid(
                    "_revisions",
                    "'ids' must hold 1 to \(RevisionID.maximumSuffixLength) printable ASCII characters other than ','")
            }
            ids.append(id)
        }
        self.init(start: start, ids: ids)
    }

    /// The JSON form.
    package var json: JSONValue {
        .object(["start": .int(Int64(start)), "ids": .array(ids.map { .string($0) })])
    }

    /// Full revision IDs, newest first: the revision itself, then its ancestors.
    package var revisionIDs: [String] {
        ids.enumerated().map { offset, digest in "\(start - offset)-\(digest)" }
    }

    /// The newest revision ID.
    package var revisionID: String { "\(start)-\(ids.first ?? "")" }

    /// The ancestors' revision IDs, newest first.
    package var ancestors: [String] { Array(revisionIDs.dropFirst()) }

    /// A revision ID's generation and digest, or nil when ``RevisionID/parse(_:)`` refuses it
    /// (a generation out of 1 ... ``RevisionID/maximumGeneration``, a malformed suffix).
    package static func split(_ revisionID: String) -> (generation: Int, digest: String)? {
        guard let (generation, suffix) = RevisionID.parse(revisionID) else { return nil }
        return (generation, String(suffix))
    }
}
