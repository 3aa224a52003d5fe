import Foundation

/// SHA-1 (FIPS 180-4), streaming.
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
public struct SHA1: Sendable {
    /// The digest length in bytes.
    public static let digestLength = 20

    private var state = SHA1State()
    private var pending = DigestBlock()

    /// A hasher that has seen no input.
    public init() {}

    /// Feeds bytes to the hasher; any chunking gives the same digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        pending.absorb(bytes, into: &state)
    }

    /// Feeds the bytes of `data` (`Data`, `[UInt8]`, a `DispatchData` ...) to the hasher.
    public mutating func update(data: some DataProtocol) {
        for region in data.regions {
            region.withUnsafeBytes { update($0) }
        }
    }

    /// Returns the 20-byte digest of everything fed so far, and starts over.
    public mutating func finalize() -> [UInt8] {
        pending.pad(into: &state)
        let digest = DigestBlock.bigEndianBytes([state.h0, state.h1, state.h2, state.h3, state.h4])
        self = SHA1()
        return digest
    }

    /// The digest of `bytes`.
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = SHA1()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `data`.
    public static func hash(data: some DataProtocol) -> [UInt8] {
        var hasher = SHA1()
        hasher.update(data: data)
        return hasher.finalize()
    }
}

/// SHA-1's five chaining words and its compression function.
struct SHA1State: DigestCompressor {
    var h0: UInt32 = 0x6745_2301
    var h1: UInt32 = 0xEFCD_AB89
    var h2: UInt32 = 0x98BA_DCFE
    var h3: UInt32 = 0x1032_5476
    var h4: UInt32 = 0xC3D2_E1F0

    /// Processes one 64-byte block (FIPS 180-4 section 6.1.2).
    mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            for t in 0..<16 {
                w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
            }
            for t in 16..<80 {
                w[t] = rotateLeft(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1)
            }
            var a = h0, b = h1, c = h2, d = h3, e = h4
            // Four loops of twenty rounds rather than one with a switch: the round function
            // and constant then stay fixed inside each loop.
            for t in 0..<20 {
                let f = (b & c) | (~b & d)
                let temp = rotateLeft(a, 5) &+ f &+ e &+ 0x5A82_7999 &+ w[t]
                e = d; d = c; c = rotateLeft(b, 30); b = a; a = temp
            }
            for t in 20..<40 {
                let f = b ^ c ^ d
                let temp = rotateLeft(a, 5) &+ f &+ e &+ 0x6ED9_EBA1 &+ w[t]
                e = d; d = c; c = rotateLeft(b, 30); b = a; a = temp
            }
            for t in 40..<60 {
                let f = (b & c) | (b & d) | (c & d)
                let temp = rotateLeft(a, 5) &+ f &+ e &+ 0x8F1B_BCDC &+ w[t]
                e = d; d = c; c = rotateLeft(b, 30); b = a; a = temp
            }
            for t in 60..<80 {
                let f = b ^ c ^ d
                let temp = rotateLeft(a, 5) &+ f &+ e &+ 0xCA62_C1D6 &+ w[t]
                e = d; d = c; c = rotateLeft(b, 30); b = a; a = temp
            }
            h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e
        }
    }
}
