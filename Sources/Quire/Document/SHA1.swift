import Crypto
import Foundation

/// SHA-1 (FIPS 180-4), streaming, computed by swift-crypto (`Insecure.SHA1`: BoringSSL, with
/// the processor's SHA instructions where there are some).
///
/// Quire uses it where Couchbase Lite does (revision IDs, blob digests), for compatibility,
/// not for security: SHA-1 is broken against deliberate collisions. Use ``SHA256`` for
/// anything that must resist an attacker.
///
/// ```swift
/// var hasher = SHA1()
/// hasher.update(data: chunk1)
/// hasher.update(data: chunk2)
/// let digest = hasher.finalize()   // 20 bytes
/// ```
package struct SHA1: Sendable {
    /// The digest length in bytes.
    package static let digestLength = Insecure.SHA1.byteCount

    /// Made on the first update and dropped by `finalize`: each swift-crypto hasher allocates
    /// its BoringSSL context, so starting over does not make one that a one-shot digest never
    /// uses.
    private var hasher: Insecure.SHA1?

    /// A hasher that has seen no input.
    package init() {}

    /// Feeds bytes to the hasher; any chunking gives the same digest.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        if hasher == nil { hasher = Insecure.SHA1() }
        hasher?.update(bufferPointer: bytes)
    }

    /// Feeds the bytes of `data` (`Data`, `[UInt8]`, a `DispatchData` ...) to the hasher.
    ///
    /// Region by region through their bytes: handing `data` to swift-crypto's generic
    /// `update(data:)` from here, where its type is not known, allocated per call.
    package mutating func update(data: some DataProtocol) {
        for region in data.regions {
            region.withUnsafeBytes { update($0) }
        }
    }

    /// Returns the 20-byte digest of everything fed so far, and starts over.
    package mutating func finalize() -> [UInt8] {
        let digest = (hasher ?? Insecure.SHA1()).finalize()
        hasher = nil
        return digest.withUnsafeBytes { Array($0) }
    }

    /// The digest as five big-endian words, without an array (a revision ID writes them as
    /// hex straight into its string); starts over.
    mutating func finalizeWords() -> (UInt32, UInt32, UInt32, UInt32, UInt32) {
        let digest = (hasher ?? Insecure.SHA1()).finalize()
        hasher = nil
        return digest.withUnsafeBytes { raw in
            func word(_ index: Int) -> UInt32 {
                UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            }
            return (word(0), word(1), word(2), word(3), word(4))
        }
    }

    /// The digest of `bytes`.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = Insecure.SHA1()
        hasher.update(bufferPointer: bytes)
        return hasher.finalize().withUnsafeBytes { Array($0) }
    }

    /// The digest of `data`.
    package static func hash(data: some DataProtocol) -> [UInt8] {
        if let region = data.regions.first, data.regions.count == 1 {
            return region.withUnsafeBytes { hash($0) }
        }
        var hasher = SHA1()
        hasher.update(data: data)
        return hasher.finalize()
    }
}
