#if TLS
    import Crypto
    import Foundation

    /// Certificate digests and address literals as both sides of HTTPS use them: the
    /// replicator's pin check here, the listener's `TLSIdentity` in QuireListener.
    package enum CertificateFingerprint {
        /// `der`'s SHA-256 as 32 upper-case hex byte pairs joined by colons (`AB:12:…`), the
        /// form `openssl x509 -fingerprint -sha256` prints.
        package static func fingerprint(ofDER der: some DataProtocol) -> String {
            fingerprint(digest(ofDER: der))
        }

        /// SHA-256 digest bytes in the form of ``fingerprint(ofDER:)``.
        package static func fingerprint(_ digest: [UInt8]) -> String {
            digest.map { String(format: "%02X", $0) }.joined(separator: ":")
        }

        /// `der`'s SHA-256.
        package static func digest(ofDER der: some DataProtocol) -> [UInt8] {
            Array(SHA256.hash(data: der))
        }

        /// The bytes of an IPv4 or IPv6 address literal; nil for a host name.
        package static func ipAddressBytes(_ host: String) -> [UInt8]? {
            var v4 = in_addr()
            if inet_pton(AF_INET, host, &v4) == 1 {
                return withUnsafeBytes(of: &v4) { Array($0) }
            }
            var v6 = in6_addr()
            if inet_pton(AF_INET6, host, &v6) == 1 {
                return withUnsafeBytes(of: &v6) { Array($0) }
            }
            return nil
        }
    }
#endif
