import Foundation
import Testing

@testable import QuireFixtures

@Suite struct FixtureHashTests {
    @Test func sha256MatchesFIPSVectors() {
        #expect(sha256Hex(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(sha256Hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            sha256Hex(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            sha256Hex(of: Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func sha256IsTheSameFedInPieces() {
        let data = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        var hasher = FixtureSHA256()
        for start in stride(from: 0, to: data.count, by: 37) { hasher.update(data[start..<min(start + 37, data.count)]) }
        #expect(hexString(hasher.finalize()) == sha256Hex(of: data))
    }

    @Test func sha1MatchesFIPSVectors() {
        #expect(hexString(sha1Digest(of: Data())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hexString(sha1Digest(of: Data("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            hexString(sha1Digest(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(blobDigest(of: Data("abc".utf8)) == "sha1-qZk+NkcGgWq6PiVxeFDCbJzQ2J0=")
    }
}
