import CQuireDigest
import Foundation

/// SHA-256 (FIPS 180-4), streaming.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(data: chunk1)
/// hasher.update(data: chunk2)
/// let digest = hasher.finalize()   // 32 bytes
/// ```
package struct SHA256: Sendable {
    /// The digest length in bytes.
    package static let digestLength = 32

    private var state = SHA256State()
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

    /// Returns the 32-byte digest of everything fed so far, and starts over.
    package mutating func finalize() -> [UInt8] {
        pending.pad(into: &state)
        let digest = DigestBlock.bigEndianBytes([
            state.h0, state.h1, state.h2, state.h3, state.h4, state.h5, state.h6, state.h7,
        ])
        self = SHA256()
        return digest
    }

    /// The digest of `bytes`.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `data`.
    package static func hash(data: some DataProtocol) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }
}

/// SHA-256's eight chaining words and its compression function.
struct SHA256State: DigestCompressor {
    var h0: UInt32 = 0x6A09_E667
    var h1: UInt32 = 0xBB67_AE85
    var h2: UInt32 = 0x3C6E_F372
    var h3: UInt32 = 0xA54F_F53A
    var h4: UInt32 = 0x510E_527F
    var h5: UInt32 = 0x9B05_688C
    var h6: UInt32 = 0x1F83_D9AB
    var h7: UInt32 = 0x5BE0_CD19

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes
    /// (FIPS 180-4 section 4.2.2).
    private static let roundConstants: [UInt32] = [
        0x428A_2F98, 0x7137_4491, 0xB5C0_FBCF, 0xE9B5_DBA5, 0x3956_C25B, 0x59F1_11F1, 0x923F_82A4, 0xAB1C_5ED5,
        0xD807_AA98, 0x1283_5B01, 0x2431_85BE, 0x550C_7DC3, 0x72BE_5D74, 0x80DE_B1FE, 0x9BDC_06A7, 0xC19B_F174,
        0xE49B_69C1, 0xEFBE_4786, 0x0FC1_9DC6, 0x240C_A1CC, 0x2DE9_2C6F, 0x4A74_84AA, 0x5CB0_A9DC, 0x76F9_88DA,
        0x983E_5152, 0xA831_C66D, 0xB003_27C8, 0xBF59_7FC7, 0xC6E0_0BF3, 0xD5A7_9147, 0x06CA_6351, 0x1429_2967,
        0x27B7_0A85, 0x2E1B_2138, 0x4D2C_6DFC, 0x5338_0D13, 0x650A_7354, 0x766A_0ABB, 0x81C2_C92E, 0x9272_2C85,
        0xA2BF_E8A1, 0xA81A_664B, 0xC24B_8B70, 0xC76C_51A3, 0xD192_E819, 0xD699_0624, 0xF40E_3585, 0x106A_A070,
        0x19A4_C116, 0x1E37_6C08, 0x2748_774C, 0x34B0_BCB5, 0x391C_0CB3, 0x4ED8_AA4A, 0x5B9C_CA4F, 0x682E_6FF3,
        0x748F_82EE, 0x78A5_636F, 0x84C8_7814, 0x8CC7_0208, 0x90BE_FFFA, 0xA450_6CEB, 0xBEF9_A3F7, 0xC671_78F2,
    ]

    /// Processes one 64-byte block, with the processor's SHA instructions where there are
    /// some (the ones SHA-1 uses): fixture builds, installs and verification hash every file.
    mutating func compress(_ block: UnsafeRawPointer) {
        guard SHA1State.usesHardware else { return compressPortable(block) }
        var words = (h0, h1, h2, h3, h4, h5, h6, h7)
        withUnsafeMutableBytes(of: &words) { state in
            guard let base = state.baseAddress else { return }
            quire_sha256_compress_blocks(
                base.assumingMemoryBound(to: UInt32.self), block.assumingMemoryBound(to: UInt8.self), 1)
        }
        (h0, h1, h2, h3, h4, h5, h6, h7) = words
    }

    /// Processes one 64-byte block in Swift (FIPS 180-4 section 6.2.2), on any processor.
    mutating func compressPortable(_ block: UnsafeRawPointer) {
        Self.roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for t in 0..<16 {
                    w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
                }
                for t in 16..<64 {
                    let x = w[t - 15], y = w[t - 2]
                    let sigma0 = rotateRight(x, 7) ^ rotateRight(x, 18) ^ (x >> 3)
                    let sigma1 = rotateRight(y, 17) ^ rotateRight(y, 19) ^ (y >> 10)
                    w[t] = sigma1 &+ w[t - 7] &+ sigma0 &+ w[t - 16]
                }
                var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                for t in 0..<64 {
                    let bigSigma1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
                    let choose = (e & f) ^ (~e & g)
                    let t1 = h &+ bigSigma1 &+ choose &+ k[t] &+ w[t]
                    let bigSigma0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = bigSigma0 &+ majority
                    h = g; g = f; f = e; e = d &+ t1
                    d = c; c = b; b = a; a = t1 &+ t2
                }
                h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
                h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
            }
        }
    }
}
