import Crypto

/// SHA-1 (FIPS 180-4), streaming, computed by swift-crypto (`Insecure.SHA1`); 20-byte digests.
///
/// Quire uses it where Couchbase Lite does (revision IDs, blob digests), for compatibility,
/// not for security: SHA-1 is broken against deliberate collisions. Use ``SHA256`` for
/// anything that must resist an attacker.
package typealias SHA1 = StreamingDigest<Insecure.SHA1>

extension StreamingDigest where Function == Insecure.SHA1 {
    /// The digest as five big-endian words, without an array (a revision ID writes them as
    /// hex straight into its string); starts over.
    mutating func finalizeWords() -> (UInt32, UInt32, UInt32, UInt32, UInt32) {
        finalizeDigest().withUnsafeBytes { raw in
            func word(_ index: Int) -> UInt32 {
                UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            }
            return (word(0), word(1), word(2), word(3), word(4))
        }
    }
}
