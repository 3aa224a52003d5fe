import Quire

/// The revision and document IDs accepted from a peer: revision IDs as the store accepts
/// them (``RevisionID/parse(_:)``: the generation a positive decimal up to
/// ``RevisionID/maximumGeneration`` without leading zeros, the suffix 1 to 128 printable ASCII
/// characters other than `,`), checked here first so a bad one is an error about the peer;
/// document IDs of 1 to 1024 UTF-8 bytes.
enum RevisionFormat {
    static let maximumGeneration = RevisionID.maximumGeneration

    /// Splits a valid revision ID, or nil.
    static func split(_ revisionID: String) -> (generation: Int, suffix: Substring)? {
        RevisionID.parse(revisionID)
    }

    /// Checks a revision ID from a peer; `field` names where it was, for the message.
    static func check(_ revisionID: String, _ field: String) throws {
        guard split(revisionID) != nil else {
            throw QuireError(
                .remoteError, "\(field) is '\(revisionID.prefix(80))', not a revision ID (<generation>-<digest>)")
        }
    }

    /// Checks a document ID from a peer.
    static func checkDocumentID(_ id: String, _ field: String) throws {
        guard !id.isEmpty, id.utf8.count <= 1024 else {
            throw QuireError(.remoteError, "\(field) is a document ID of \(id.utf8.count) bytes, expected 1 to 1024")
        }
    }
}
