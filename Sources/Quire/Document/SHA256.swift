import Crypto

/// SHA-256 (FIPS 180-4), streaming, computed by swift-crypto (`Crypto.SHA256`); 32-byte digests.
package typealias SHA256 = StreamingDigest<Crypto.SHA256>
