import Foundation

/// SHA-1 (FIPS 180-4), used only for Couchbase-style blob digests (`sha1-<base64>`).
///
/// A stopgap until `Quire` ships its own `SHA1`: callers only use ``update(_:)``,
/// ``finalize()`` and ``sha1Digest(of:)``, so the swap touches this one file.
struct FixtureSHA1 {
    private var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0]
    private var block = [UInt8](repeating: 0, count: 64)
    private var blockCount = 0
    private var messageLength: UInt64 = 0
    private var schedule = [UInt32](repeating: 0, count: 80)

    /// Adds bytes to the message.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        messageLength &+= UInt64(bytes.count)
        var index = 0
        while index < bytes.count {
            let take = min(64 - blockCount, bytes.count - index)
            for offset in 0..<take { block[blockCount + offset] = bytes[index + offset] }
            blockCount += take
            index += take
            if blockCount == 64 {
                compressBlock()
                blockCount = 0
            }
        }
    }

    /// Adds bytes to the message.
    mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Pads the message and returns the 20-byte digest.
    mutating func finalize() -> [UInt8] {
        let bitLength = messageLength &* 8
        var padding: [UInt8] = [0x80]
        let afterMarker = (blockCount + 1) % 64
        let zeros = afterMarker <= 56 ? 56 - afterMarker : 120 - afterMarker
        padding += [UInt8](repeating: 0, count: zeros)
        for shift in stride(from: 56, through: 0, by: -8) { padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        padding.withUnsafeBytes { update($0) }
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in state {
            for shift in stride(from: 24, through: 0, by: -8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return digest
    }

    private mutating func compressBlock() {
        for t in 0..<16 {
            schedule[t] = UInt32(block[4 * t]) << 24 | UInt32(block[4 * t + 1]) << 16
                | UInt32(block[4 * t + 2]) << 8 | UInt32(block[4 * t + 3])
        }
        for t in 16..<80 {
            schedule[t] = rotateLeft(schedule[t - 3] ^ schedule[t - 8] ^ schedule[t - 14] ^ schedule[t - 16], 1)
        }
        var a = state[0], b = state[1], c = state[2], d = state[3], e = state[4]
        for t in 0..<80 {
            let mixed: UInt32
            let constant: UInt32
            switch t {
            case 0..<20: mixed = (b & c) | (~b & d); constant = 0x5a82_7999
            case 20..<40: mixed = b ^ c ^ d; constant = 0x6ed9_eba1
            case 40..<60: mixed = (b & c) | (b & d) | (c & d); constant = 0x8f1b_bcdc
            default: mixed = b ^ c ^ d; constant = 0xca62_c1d6
            }
            let temp = rotateLeft(a, 5) &+ mixed &+ e &+ constant &+ schedule[t]
            e = d; d = c; c = rotateLeft(b, 30); b = a; a = temp
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d; state[4] &+= e
    }
}

@inline(__always)
private func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value << count) | (value >> (32 - count))
}

/// The 20-byte SHA-1 of `data`.
func sha1Digest(of data: Data) -> [UInt8] {
    var hasher = FixtureSHA1()
    hasher.update(data)
    return hasher.finalize()
}

/// The Couchbase blob digest of `data`: `sha1-` followed by the standard base64 of its SHA-1.
func blobDigest(of data: Data) -> String {
    "sha1-" + Data(sha1Digest(of: data)).base64EncodedString()
}
