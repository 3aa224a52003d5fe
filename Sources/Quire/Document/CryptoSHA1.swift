import Crypto
import Foundation

/// SHA-1 through swift-crypto (`Insecure.SHA1`, BoringSSL), with ``SHA1``'s interface, so the
/// digest benchmark can compare the two on the path of a save.
public struct CryptoSHA1: Sendable {
    /// The digest length in bytes.
    public static let digestLength = Insecure.SHA1.byteCount

    private var hasher = Insecure.SHA1()

    /// A hasher that has seen no input.
    public init() {}

    /// Feeds bytes to the hasher; any chunking gives the same digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    /// Feeds the bytes of `data` (`Data`, `[UInt8]`, a `DispatchData` ...) to the hasher.
    public mutating func update(data: some DataProtocol) {
        hasher.update(data: data)
    }

    /// Returns the 20-byte digest of everything fed so far, and starts over.
    public mutating func finalize() -> [UInt8] {
        let digest = hasher.finalize()
        self = CryptoSHA1()
        return Array(digest)
    }

    /// The digest as five big-endian words, without an array; starts over.
    mutating func finalizeWords() -> (UInt32, UInt32, UInt32, UInt32, UInt32) {
        let digest = hasher.finalize()
        self = CryptoSHA1()
        return digest.withUnsafeBytes { raw in
            func word(_ index: Int) -> UInt32 {
                UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            }
            return (word(0), word(1), word(2), word(3), word(4))
        }
    }

    /// The digest of `data`.
    public static func hash(data: some DataProtocol) -> [UInt8] {
        Array(Insecure.SHA1.hash(data: data))
    }
}

/// Which SHA-1 a save's revision ID is computed with; only the digest benchmark changes it.
public enum RevisionDigestChoice {
    /// When true, ``CryptoSHA1``; when false (the default), ``SHA1``.
    nonisolated(unsafe) public static var usesSwiftCrypto = false
}
