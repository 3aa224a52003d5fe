import CQuireFTS
import Foundation
import Testing

@testable import Quire

@Suite struct SHA1Tests {
    /// FIPS 180-2 appendix A and the NIST example vectors.
    @Test(arguments: [
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "a49b2446a02c645bf419f995b67091253a04a259"
        ),
    ])
    func nistVectors(message: String, expected: String) {
        #expect(DigestText.hex(SHA1.hash(data: Array(message.utf8))) == expected)
    }

    @Test func millionAs() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(DigestText.hex(SHA1.hash(data: message)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    /// Lengths around the padding boundary: the length field fits in the last block (55),
    /// just does not (56), and whole blocks (64, 120).
    @Test(arguments: [
        (55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
        (56, "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
        (63, "03f09f5b158a7a8cdad920bddc29b81c18a551f5"),
        (64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
        (65, "11655326c708d70319be2610e8a57d9a5b959d3b"),
        (119, "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56"),
        (120, "f34c1488385346a55709ba056ddd08280dd4c6d6"),
    ])
    func paddingBoundaries(length: Int, expected: String) {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(DigestText.hex(SHA1.hash(data: message)) == expected)
    }

    @Test func streamingInOddChunksMatchesOneShot() {
        let message = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let expected = "35ab00c96f47c268b087d40d0dcd7245809f0d5c"
        #expect(DigestText.hex(SHA1.hash(data: message)) == expected)
        for chunkSizes in [[1], [3, 7], [63, 64, 65], [13, 1, 127, 1000], [4095]] {
            var hasher = SHA1()
            var offset = 0
            var turn = 0
            while offset < message.count {
                let size = min(chunkSizes[turn % chunkSizes.count], message.count - offset)
                message[offset..<(offset + size)].withUnsafeBytes { hasher.update($0) }
                offset += size
                turn += 1
            }
            #expect(DigestText.hex(hasher.finalize()) == expected, "chunks \(chunkSizes)")
        }
    }

    @Test func emptyUpdatesChangeNothing() {
        var hasher = SHA1()
        hasher.update(data: [UInt8]())
        hasher.update(data: Array("ab".utf8))
        hasher.update(UnsafeRawBufferPointer(start: nil, count: 0))
        hasher.update(data: Data("c".utf8))
        #expect(DigestText.hex(hasher.finalize()) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test func finalizeStartsOver() {
        var hasher = SHA1()
        hasher.update(data: Array("abc".utf8))
        _ = hasher.finalize()
        #expect(DigestText.hex(hasher.finalize()) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test func multiRegionData() {
        var data = DispatchData.empty
        for part in ["a", "bc", ""] {
            Array(part.utf8).withUnsafeBytes { data.append($0) }
        }
        #expect(DigestText.hex(SHA1.hash(data: data)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test func base64FormMatchesCouchbaseStyle() {
        let digest = SHA1.hash(data: Array("abc".utf8))
        #expect(digest.count == SHA1.digestLength)
        #expect(DigestText.base64(digest) == "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=")
    }

    /// The C compressions revision IDs use (SHA instructions, or vector schedule and BMI
    /// rounds) give swift-crypto's digest at every length around the block boundaries and
    /// for a long message; each runs where the processor has it.
    @Test func compressionsInCAgreeWithSwiftCrypto() {
        let support = Int(quire_sha1_support())
        let message = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
        let lengths = Array(0...300) + [1_000, 4_096, 65_537, 70_000]
        for level in [1, 2] where level <= support {
            for length in lengths {
                let expected = message[..<length].withUnsafeBytes { SHA1.hash($0) }
                var digest = [UInt8](repeating: 0, count: 20)
                message.withUnsafeBytes { quire_sha1_digest($0.baseAddress, length, Int32(level), &digest) }
                #expect(digest == expected, "level \(level), \(length) bytes")
            }
        }
    }
}
