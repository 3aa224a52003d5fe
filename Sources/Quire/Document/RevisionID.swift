/// Revision IDs: `<generation>-<hex SHA-1>`.
///
/// The digest covers the parent revision ID, the deletion flag and the canonical JSON body
/// (keys sorted), separated by NUL bytes, so equal edits of equal parents give equal IDs on
/// every device, as CouchDB's deterministic revisions do.
enum RevisionID {
    static func make(parent: String?, deleted: Bool, canonicalBody: [UInt8]) -> String {
        var hasher = SHA1()
        if var parent {
            parent.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
        }
        withUnsafeBytes(of: (UInt8(0), UInt8(deleted ? 1 : 0), UInt8(0))) { hasher.update($0) }
        canonicalBody.withUnsafeBytes { hasher.update($0) }
        let words = hasher.finalizeWords()
        // `<generation>-<40 hex digits>`, written once into the string's own storage.
        let generation = String(generation(of: parent) + 1)
        return String(unsafeUninitializedCapacity: generation.utf8.count + 41) { buffer in
            var count = 0
            for byte in generation.utf8 {
                buffer[count] = byte
                count += 1
            }
            buffer[count] = UInt8(ascii: "-")
            count += 1
            let digits: StaticString = "0123456789abcdef"
            func appendHex(_ word: UInt32) {
                var shift: UInt32 = 28
                while true {
                    buffer[count] = digits.utf8Start[Int((word >> shift) & 0xF)]
                    count += 1
                    if shift == 0 { break }
                    shift -= 4
                }
            }
            appendHex(words.0)
            appendHex(words.1)
            appendHex(words.2)
            appendHex(words.3)
            appendHex(words.4)
            return count
        }
    }

    /// The generation of a revision ID (0 for nil or a malformed ID).
    static func generation(of revisionID: String?) -> Int {
        guard let revisionID, let dash = revisionID.firstIndex(of: "-") else { return 0 }
        return Int(revisionID[..<dash]) ?? 0
    }
}
