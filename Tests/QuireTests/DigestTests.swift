import Testing

@testable import Quire

@Suite struct DigestTests {
    @Test func hexRoundTrip() {
        let bytes: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xAB, 0xFF]
        #expect(Digest.hex(bytes) == "00017f80abff")
        #expect(Digest.bytes(fromHex: "00017f80abff") == bytes)
        #expect(Digest.bytes(fromHex: "00017F80ABFF") == bytes)
        #expect(Digest.bytes(fromHex: "") == [])
        #expect(Digest.bytes(fromHex: "abc") == nil)
        #expect(Digest.bytes(fromHex: "zz") == nil)
    }

    @Test func base64RoundTrip() {
        let bytes: [UInt8] = Array("any carnal pleas".utf8)
        #expect(Digest.base64(bytes) == "YW55IGNhcm5hbCBwbGVhcw==")
        #expect(Digest.bytes(fromBase64: "YW55IGNhcm5hbCBwbGVhcw==") == bytes)
        #expect(Digest.bytes(fromBase64: "not base64!") == nil)
    }
}
