import Testing

@testable import Quire

@Suite struct DigestTextTests {
    @Test func hexRoundTrip() {
        let bytes: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xAB, 0xFF]
        #expect(DigestText.hex(bytes) == "00017f80abff")
        #expect(DigestText.bytes(fromHex: "00017f80abff") == bytes)
        #expect(DigestText.bytes(fromHex: "00017F80ABFF") == bytes)
        #expect(DigestText.bytes(fromHex: "") == [])
        #expect(DigestText.bytes(fromHex: "abc") == nil)
        #expect(DigestText.bytes(fromHex: "zz") == nil)
    }

    @Test func base64RoundTrip() {
        let bytes: [UInt8] = Array("any carnal pleas".utf8)
        #expect(DigestText.base64(bytes) == "YW55IGNhcm5hbCBwbGVhcw==")
        #expect(DigestText.bytes(fromBase64: "YW55IGNhcm5hbCBwbGVhcw==") == bytes)
        #expect(DigestText.bytes(fromBase64: "not base64!") == nil)
    }
}
