import Foundation

/// QuireSync's hand-written MD5 (RFC 1321) as it was before swift-crypto replaced it, kept
/// here as the baseline of the `md5` digest benchmarks.
enum HandWrittenMD5 {
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// floor(abs(sin(i + 1)) * 2^32), the RFC's table.
    private static let constants: [UInt32] = (0..<64).map { index in
        UInt32(truncatingIfNeeded: Int64((abs(sin(Double(index + 1))) * 4_294_967_296).rounded(.down)))
    }

    /// The 16-byte digest of `bytes`.
    static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var message = Array(bytes)
        let bitLength = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

        var a0: UInt32 = 0x6745_2301
        var b0: UInt32 = 0xefcd_ab89
        var c0: UInt32 = 0x98ba_dcfe
        var d0: UInt32 = 0x1032_5476
        var words = [UInt32](repeating: 0, count: 16)
        for chunk in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 {
                let base = chunk + index * 4
                words[index] =
                    UInt32(message[base]) | UInt32(message[base + 1]) << 8 | UInt32(message[base + 2]) << 16
                    | UInt32(message[base + 3]) << 24
            }
            var (a, b, c, d) = (a0, b0, c0, d0)
            for round in 0..<64 {
                var f: UInt32
                let g: Int
                switch round {
                case 0..<16: (f, g) = ((b & c) | (~b & d), round)
                case 16..<32: (f, g) = ((d & b) | (~d & c), (5 * round + 1) % 16)
                case 32..<48: (f, g) = (b ^ c ^ d, (3 * round + 5) % 16)
                default: (f, g) = (c ^ (b | ~d), (7 * round) % 16)
                }
                f = f &+ a &+ constants[round] &+ words[g]
                a = d
                d = c
                c = b
                b = b &+ (f << shifts[round] | f >> (32 - shifts[round]))
            }
            a0 = a0 &+ a
            b0 = b0 &+ b
            c0 = c0 &+ c
            d0 = d0 &+ d
        }
        return [a0, b0, c0, d0].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32($0 * 8)) } }
    }
}
