import Foundation
import Testing

@testable import Quire

@Suite struct SHA256Tests {
    /// FIPS 180-2 appendix B and the NIST example vectors.
    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func nistVectors(message: String, expected: String) {
        #expect(DigestText.hex(SHA256.hash(data: Array(message.utf8))) == expected)
    }

    @Test func millionAs() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(
            DigestText.hex(SHA256.hash(data: message))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        )
    }

    /// Lengths around the padding boundary: the length field fits in the last block (55),
    /// just does not (56), and whole blocks (64, 120).
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
    ])
    func paddingBoundaries(length: Int, expected: String) {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(DigestText.hex(SHA256.hash(data: message)) == expected)
    }

    @Test func streamingInOddChunksMatchesOneShot() {
        let message = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let expected = "731620161155f68e1209f22bc34a726bf5a583f40acf23ae55684b674fdbebf2"
        #expect(DigestText.hex(SHA256.hash(data: message)) == expected)
        for chunkSizes in [[1], [3, 7], [63, 64, 65], [13, 1, 127, 1000], [4095]] {
            var hasher = SHA256()
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
        var hasher = SHA256()
        hasher.update(data: [UInt8]())
        hasher.update(data: Array("ab".utf8))
        hasher.update(UnsafeRawBufferPointer(start: nil, count: 0))
        hasher.update(data: Data("c".utf8))
        #expect(DigestText.hex(hasher.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func finalizeStartsOver() {
        var hasher = SHA256()
        hasher.update(data: Array("abc".utf8))
        _ = hasher.finalize()
        #expect(DigestText.hex(hasher.finalize()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func multiRegionData() {
        var data = DispatchData.empty
        for part in ["a", "bc", ""] {
            Array(part.utf8).withUnsafeBytes { data.append($0) }
        }
        #expect(
            DigestText.hex(SHA256.hash(data: data))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func base64Form() {
        let digest = SHA256.hash(data: Array("abc".utf8))
        #expect(digest.count == SHA256.digestLength)
        #expect(DigestText.base64(digest) == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
    }

}
