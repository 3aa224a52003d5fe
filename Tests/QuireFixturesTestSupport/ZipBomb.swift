import Foundation

/// A valid zip whose one entry, `zeros`, inflates to more than 4 GiB from about 4 MB: the
/// classic decompression bomb, written directly rather than by compressing gigabytes.
///
/// The entry's deflate stream is one dynamic-Huffman block whose code gives the length 258 and
/// the distance 1 one bit each, so every two zero bits repeat the previous 258 bytes (deflate's
/// best ratio, about 1032:1). Sizes are stored in zip64 fields and the CRC-32 is the real one
/// for the expanded bytes, so a reader that does not stop early would see a good archive.
package enum ZipBomb {
    /// Repeats of the longest match; the entry expands to `1 + 258 * matches` bytes.
    package static let matches = 16_647_164
    /// 4,294,968,313 bytes: just over 4 GiB, so it needs zip64.
    package static let expandedSize = Int64(1 + 258 * matches)

    /// The archive's bytes; `declaredSize` overrides the uncompressed size in both headers
    /// (a lying header), otherwise the true size is written.
    package static func archive(declaredSize: Int64? = nil) -> Data {
        let deflated = deflateStream()
        let name = Array("zeros".utf8)
        let uncompressed = UInt64(declaredSize ?? expandedSize)
        let crc = crc32OfZeros(count: UInt64(expandedSize))
        var zip = ByteWriter()
        // Local file header, sizes in the zip64 extra field.
        zip.u32(0x0403_4B50)
        zip.u16(45)
        zip.u16(0)
        zip.u16(8)
        zip.u16(0)
        zip.u16(0x5821)
        zip.u32(crc)
        zip.u32(0xFFFF_FFFF)
        zip.u32(0xFFFF_FFFF)
        zip.u16(UInt16(name.count))
        zip.u16(20)
        zip.bytes(name)
        zip.u16(0x0001)
        zip.u16(16)
        zip.u64(uncompressed)
        zip.u64(UInt64(deflated.count))
        zip.bytes(deflated)
        let directoryOffset = zip.count
        // Central directory header: made by Unix, regular file 0644.
        zip.u32(0x0201_4B50)
        zip.u16(3 << 8 | 45)
        zip.u16(45)
        zip.u16(0)
        zip.u16(8)
        zip.u16(0)
        zip.u16(0x5821)
        zip.u32(crc)
        zip.u32(0xFFFF_FFFF)
        zip.u32(0xFFFF_FFFF)
        zip.u16(UInt16(name.count))
        zip.u16(20)
        zip.u16(0)
        zip.u16(0)
        zip.u16(0)
        zip.u32(0o100644 << 16)
        zip.u32(0)
        zip.bytes(name)
        zip.u16(0x0001)
        zip.u16(16)
        zip.u64(uncompressed)
        zip.u64(UInt64(deflated.count))
        let directorySize = zip.count - directoryOffset
        // End of central directory.
        zip.u32(0x0605_4B50)
        zip.u16(0)
        zip.u16(0)
        zip.u16(1)
        zip.u16(1)
        zip.u32(UInt32(directorySize))
        zip.u32(UInt32(directoryOffset))
        zip.u16(0)
        return Data(zip.output)
    }

    /// The raw deflate stream (RFC 1951) of `expandedSize` zero bytes.
    package static func deflateStream() -> [UInt8] {
        var bits = BitWriter()
        bits.value(1, count: 1)  // final block
        bits.value(2, count: 2)  // dynamic Huffman
        bits.value(286 - 257, count: 5)  // literal/length codes up to 285 (length 258)
        bits.value(1 - 1, count: 5)  // one distance code
        bits.value(18 - 4, count: 4)  // code-length code lengths given, in the order below
        // The code-length code: symbol 18 (a run of zeros) one bit, symbols 1 and 2 two bits.
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1]
        let lengths: [Int: UInt32] = [18: 1, 1: 2, 2: 2]
        for symbol in order { bits.value(lengths[symbol] ?? 0, count: 3) }
        // Literal/length lengths: 0 → 2 bits, 256 → 2 bits, 285 → 1 bit; distance 0 → 1 bit.
        let run18: UInt32 = 0b0
        let one: UInt32 = 0b10
        let two: UInt32 = 0b11
        bits.code(two, count: 2)
        bits.code(run18, count: 1)
        bits.value(138 - 11, count: 7)
        bits.code(run18, count: 1)
        bits.value(117 - 11, count: 7)
        bits.code(two, count: 2)
        bits.code(run18, count: 1)
        bits.value(28 - 11, count: 7)
        bits.code(one, count: 2)
        bits.code(one, count: 2)
        // Data: a literal zero (code 10), then length 258 (code 0) at distance 1 (code 0) over
        // and over, then end of block (code 11).
        bits.code(0b10, count: 2)
        bits.zeros(2 * matches)
        bits.code(0b11, count: 2)
        return bits.output
    }

    /// CRC-32 (zip's) of `count` zero bytes, without touching them: the register starts at
    /// all ones and each zero byte multiplies it by x^8 modulo the polynomial, so the result is
    /// all ones times x^(8·count), computed by squaring.
    package static func crc32OfZeros(count: UInt64) -> UInt32 {
        let polynomial: UInt32 = 0xEDB8_8320
        func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
            var a = a
            var b = b
            var product: UInt32 = 0
            var mask: UInt32 = 1 << 31
            while mask != 0 {
                if a & mask != 0 {
                    product ^= b
                    a ^= mask
                    if a == 0 { break }
                }
                mask >>= 1
                b = b & 1 != 0 ? (b >> 1) ^ polynomial : b >> 1
            }
            return product
        }
        var power: UInt32 = 1 << 31  // x^0
        var square: UInt32 = 1 << 30  // x^1, then x^2, x^4 ...
        var exponent = count * 8
        while exponent != 0 {
            if exponent & 1 != 0 { power = multiply(square, power) }
            square = multiply(square, square)
            exponent >>= 1
        }
        return multiply(power, 0xFFFF_FFFF) ^ 0xFFFF_FFFF
    }

    /// Bits in deflate's order: values least significant bit first, Huffman codes most
    /// significant bit first.
    private struct BitWriter {
        var output: [UInt8] = []
        var bitCount = 0

        mutating func value(_ value: UInt32, count: Int) {
            for index in 0..<count { bit(value >> UInt32(index) & 1) }
        }

        mutating func code(_ code: UInt32, count: Int) {
            for index in (0..<count).reversed() { bit(code >> UInt32(index) & 1) }
        }

        mutating func zeros(_ count: Int) {
            bitCount += count
            output.append(contentsOf: repeatElement(0, count: (bitCount + 7) / 8 - output.count))
        }

        private mutating func bit(_ bit: UInt32) {
            if bitCount % 8 == 0 { output.append(0) }
            output[output.count - 1] |= UInt8(bit) << UInt8(bitCount % 8)
            bitCount += 1
        }
    }

    /// Little-endian fields.
    private struct ByteWriter {
        var output: [UInt8] = []
        var count: Int { output.count }
        mutating func u16(_ value: UInt16) { output += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        mutating func u32(_ value: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) {
                output.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
            }
        }
        mutating func u64(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
        }
        mutating func bytes(_ bytes: [UInt8]) { output += bytes }
    }
}
