import Quire

/// The revision and document IDs accepted from a peer, stricter than the wire types' checks
/// because they end up in the revision tree: `<generation>-<suffix>`, the generation a
/// positive decimal below 2^31 without leading zeros, the suffix 1 to 128 printable ASCII
/// characters other than `,` (Quire stores ancestry comma-separated) and space; document IDs
/// of 1 to 1024 UTF-8 bytes.
enum RevisionFormat {
    static let maximumGeneration = Int(Int32.max)

    /// Splits a valid revision ID, or nil.
    static func split(_ revisionID: String) -> (generation: Int, suffix: Substring)? {
        guard let dash = revisionID.firstIndex(of: "-") else { return nil }
        let digits = revisionID[..<dash]
        let suffix = revisionID[revisionID.index(after: dash)...]
        guard !digits.isEmpty, digits.count <= 10, digits.first != "0", digits.allSatisfy(\.isASCII),
            let generation = Int(digits), generation <= maximumGeneration,
            isValidSuffix(suffix)
        else { return nil }
        return (generation, suffix)
    }

    static func isValidSuffix(_ suffix: Substring) -> Bool {
        !suffix.isEmpty && suffix.utf8.count <= 128
            && suffix.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") }
    }

    /// Checks a revision ID from a peer; `field` names where it was, for the message.
    static func check(_ revisionID: String, _ field: String) throws {
        guard split(revisionID) != nil else {
            throw QuireError(.remoteError, "\(field) is '\(revisionID.prefix(80))', not a revision ID (<generation>-<digest>)")
        }
    }

    /// Checks a document ID from a peer.
    static func checkDocumentID(_ id: String, _ field: String) throws {
        guard !id.isEmpty, id.utf8.count <= 1024 else {
            throw QuireError(.remoteError, "\(field) is a document ID of \(id.utf8.count) bytes, expected 1 to 1024")
        }
    }
}
