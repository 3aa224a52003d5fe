import CQuireDigest
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
package struct SHA1: Sendable {
    /// The digest length in bytes.
    package static let digestLength = 20

    private var state = SHA1State()
    private var pending = DigestBlock()

    /// A hasher that has seen no input.
    package init() {}

    /// Feeds bytes to the hasher; any chunking gives the same digest.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        pending.absorb(bytes, into: &state)
    }

    /// Feeds the bytes of `data` (`Data`, `[UInt8]`, a `DispatchData` ...) to the hasher.
    package mutating func update(data: some DataProtocol) {
        for region in data.regions {
            region.withUnsafeBytes { update($0) }
        }
    }

    /// Returns the 20-byte digest of everything fed so far, and starts over.
    package mutating func finalize() -> [UInt8] {
        let words = finalizeWords()
        return DigestBlock.bigEndianBytes([words.0, words.1, words.2, words.3, words.4])
    }

    /// The digest as five big-endian words, without an array; starts over.
    mutating func finalizeWords() -> (UInt32, UInt32, UInt32, UInt32, UInt32) {
        pending.pad(into: &state)
        let words = (state.h0, state.h1, state.h2, state.h3, state.h4)
        self = SHA1()
        return words
    }

    /// The digest of `bytes`.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = SHA1()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `data`.
    package static func hash(data: some DataProtocol) -> [UInt8] {
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

    /// Whether the processor's SHA instructions do the work (x86-64 with the SHA extensions).
    static let usesHardware = quire_sha1_hardware_available() != 0

    /// Processes one 64-byte block, with the processor's SHA instructions where there are
    /// some: this is on the path of every save (revision IDs) and of every blob's digest.
    mutating func compress(_ block: UnsafeRawPointer) {
        guard SHA1State.usesHardware else { return compressPortable(block) }
        var words = (h0, h1, h2, h3, h4)
        withUnsafeMutableBytes(of: &words) { state in
            guard let base = state.baseAddress else { return }
            quire_sha1_compress_blocks(
                base.assumingMemoryBound(to: UInt32.self), block.assumingMemoryBound(to: UInt8.self), 1)
        }
        (h0, h1, h2, h3, h4) = words
    }

    /// Processes one 64-byte block in Swift (FIPS 180-4 section 6.1.2), on any processor.
    ///
    /// Rounds go five at a time with the roles of `a`...`e` rotating instead of the values
    /// moving, over a schedule computed up front.
    mutating func compressPortable(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { schedule in
            guard let w = schedule.baseAddress else { return }
            for t in 0..<16 {
                w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
            }
            for t in 16..<80 {
                w[t] = rotateLeft(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1)
            }
            var a = h0, b = h1, c = h2, d = h3, e = h4

            @inline(__always)
            func word(_ t: Int) -> UInt32 { w[t] }

            var t = 0
            while t < 20 {
                e &+= rotateLeft(a, 5) &+ ((b & c) | (~b & d)) &+ 0x5A82_7999 &+ word(t); b = rotateLeft(b, 30)
                d &+= rotateLeft(e, 5) &+ ((a & b) | (~a & c)) &+ 0x5A82_7999 &+ word(t + 1); a = rotateLeft(a, 30)
                c &+= rotateLeft(d, 5) &+ ((e & a) | (~e & b)) &+ 0x5A82_7999 &+ word(t + 2); e = rotateLeft(e, 30)
                b &+= rotateLeft(c, 5) &+ ((d & e) | (~d & a)) &+ 0x5A82_7999 &+ word(t + 3); d = rotateLeft(d, 30)
                a &+= rotateLeft(b, 5) &+ ((c & d) | (~c & e)) &+ 0x5A82_7999 &+ word(t + 4); c = rotateLeft(c, 30)
                t += 5
            }
            while t < 40 {
                e &+= rotateLeft(a, 5) &+ (b ^ c ^ d) &+ 0x6ED9_EBA1 &+ word(t); b = rotateLeft(b, 30)
                d &+= rotateLeft(e, 5) &+ (a ^ b ^ c) &+ 0x6ED9_EBA1 &+ word(t + 1); a = rotateLeft(a, 30)
                c &+= rotateLeft(d, 5) &+ (e ^ a ^ b) &+ 0x6ED9_EBA1 &+ word(t + 2); e = rotateLeft(e, 30)
                b &+= rotateLeft(c, 5) &+ (d ^ e ^ a) &+ 0x6ED9_EBA1 &+ word(t + 3); d = rotateLeft(d, 30)
                a &+= rotateLeft(b, 5) &+ (c ^ d ^ e) &+ 0x6ED9_EBA1 &+ word(t + 4); c = rotateLeft(c, 30)
                t += 5
            }
            while t < 60 {
                e &+= rotateLeft(a, 5) &+ ((b & c) | (b & d) | (c & d)) &+ 0x8F1B_BCDC &+ word(t); b = rotateLeft(b, 30)
                d &+= rotateLeft(e, 5) &+ ((a & b) | (a & c) | (b & c)) &+ 0x8F1B_BCDC &+ word(t + 1); a = rotateLeft(a, 30)
                c &+= rotateLeft(d, 5) &+ ((e & a) | (e & b) | (a & b)) &+ 0x8F1B_BCDC &+ word(t + 2); e = rotateLeft(e, 30)
                b &+= rotateLeft(c, 5) &+ ((d & e) | (d & a) | (e & a)) &+ 0x8F1B_BCDC &+ word(t + 3); d = rotateLeft(d, 30)
                a &+= rotateLeft(b, 5) &+ ((c & d) | (c & e) | (d & e)) &+ 0x8F1B_BCDC &+ word(t + 4); c = rotateLeft(c, 30)
                t += 5
            }
            while t < 80 {
                e &+= rotateLeft(a, 5) &+ (b ^ c ^ d) &+ 0xCA62_C1D6 &+ word(t); b = rotateLeft(b, 30)
                d &+= rotateLeft(e, 5) &+ (a ^ b ^ c) &+ 0xCA62_C1D6 &+ word(t + 1); a = rotateLeft(a, 30)
                c &+= rotateLeft(d, 5) &+ (e ^ a ^ b) &+ 0xCA62_C1D6 &+ word(t + 2); e = rotateLeft(e, 30)
                b &+= rotateLeft(c, 5) &+ (d ^ e ^ a) &+ 0xCA62_C1D6 &+ word(t + 3); d = rotateLeft(d, 30)
                a &+= rotateLeft(b, 5) &+ (c ^ d ^ e) &+ 0xCA62_C1D6 &+ word(t + 4); c = rotateLeft(c, 30)
                t += 5
            }
            h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e
        }
    }
}
