import Foundation

/// A hash function's chaining state, advanced one 64-byte block at a time.
protocol DigestCompressor {
    mutating func compress(_ block: UnsafeRawPointer)
}

@inline(__always)
func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value << count) | (value >> (32 - count))
}

@inline(__always)
func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value >> count) | (value << (32 - count))
}

/// The 64-byte block buffer and message length shared by SHA-1 and SHA-256, which pad
/// their input the same way (FIPS 180-4 section 5.1.1).
struct DigestBlock: Sendable {
    /// Bytes of an incomplete block; a tuple so that hashers never touch the heap.
    private var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var buffered = 0
    /// Message length in bytes; FIPS 180-4 counts bits modulo 2^64, as does the padding.
    private var length: UInt64 = 0

    /// Hands every complete block of (buffered + `bytes`) to `compress`, keeping the rest.
    @inline(__always)
    mutating func absorb(_ bytes: UnsafeRawBufferPointer, into state: inout some DigestCompressor) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        if buffered > 0 {
            let taken = min(64 - buffered, bytes.count)
            withUnsafeMutableBytes(of: &buffer) { block in
                block.baseAddress.map { ($0 + buffered).copyMemory(from: source, byteCount: taken) }
            }
            buffered += taken
            offset = taken
            guard buffered == 64 else { return }
            withUnsafeBytes(of: buffer) { block in block.baseAddress.map { state.compress($0) } }
            buffered = 0
        }
        // Whole blocks are hashed straight from the caller's memory, without a copy.
        while bytes.count - offset >= 64 {
            state.compress(source + offset)
            offset += 64
        }
        let rest = bytes.count - offset
        if rest > 0 {
            withUnsafeMutableBytes(of: &buffer) { block in
                block.baseAddress.map { $0.copyMemory(from: source + offset, byteCount: rest) }
            }
            buffered = rest
        }
    }

    /// Appends the padding and the bit length, handing the last block or two to `compress`.
    mutating func pad(into state: inout some DigestCompressor) {
        let bitLength = length &* 8
        // 0x80, then zeros up to 56 mod 64, then the length: 9 to 72 bytes in all.
        let padLength = buffered < 56 ? 56 - buffered : 120 - buffered
        withUnsafeTemporaryAllocation(byteCount: 72, alignment: 8) { padding in
            padding.initializeMemory(as: UInt8.self, repeating: 0)
            padding[0] = 0x80
            padding.storeBytes(of: bitLength.bigEndian, toByteOffset: padLength, as: UInt64.self)
            absorb(UnsafeRawBufferPointer(rebasing: padding[..<(padLength + 8)]), into: &state)
        }
    }

    static func bigEndianBytes(_ words: [UInt32]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(words.count * 4)
        for word in words {
            bytes.append(UInt8(truncatingIfNeeded: word >> 24))
            bytes.append(UInt8(truncatingIfNeeded: word >> 16))
            bytes.append(UInt8(truncatingIfNeeded: word >> 8))
            bytes.append(UInt8(truncatingIfNeeded: word))
        }
        return bytes
    }
}
