/// Revision IDs: `<generation>-<hex SHA-1>`.
///
/// The digest covers the parent revision ID, the deletion flag and the canonical JSON body
/// (keys sorted), separated by NUL bytes, so equal edits of equal parents give equal IDs on
/// every device, as CouchDB's deterministic revisions do.
enum RevisionID {
    static func make(parent: String?, deleted: Bool, canonicalBody: [UInt8]) -> String {
        var hasher = SHA1()
        let parentBytes = Array((parent ?? "").utf8)
        parentBytes.withUnsafeBytes { hasher.update($0) }
        let separator: [UInt8] = [0, deleted ? 1 : 0, 0]
        separator.withUnsafeBytes { hasher.update($0) }
        canonicalBody.withUnsafeBytes { hasher.update($0) }
        return "\(generation(of: parent) + 1)-" + Digest.hex(hasher.finalize())
    }

    /// The generation of a revision ID (0 for nil or a malformed ID).
    static func generation(of revisionID: String?) -> Int {
        guard let revisionID, let dash = revisionID.firstIndex(of: "-") else { return 0 }
        return Int(revisionID[..<dash]) ?? 0
    }
}
