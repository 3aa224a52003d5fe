import Crypto
import Foundation

/// A streaming digest over one of swift-crypto's hash functions (BoringSSL, with the
/// processor's SHA instructions where there are some): ``SHA1`` and ``SHA256`` are this type
/// over `Insecure.SHA1` and `Crypto.SHA256`.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(data: chunk1)
/// hasher.update(data: chunk2)
/// let digest = hasher.finalize()   // 32 bytes
/// ```
package struct StreamingDigest<Function: HashFunction> {
    /// The digest length in bytes.
    package static var digestLength: Int { Function.Digest.byteCount }

    /// Made on the first update and dropped by `finalize`: each swift-crypto hasher allocates
    /// its BoringSSL context, so starting over does not make one that a one-shot digest never
    /// uses.
    private var hasher: Function?

    /// A hasher that has seen no input.
    package init() {}

    /// Feeds bytes to the hasher; any chunking gives the same digest.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        if hasher == nil { hasher = Function() }
        hasher?.update(bufferPointer: bytes)
    }

    /// Feeds the bytes of `data` (`Data`, `[UInt8]`, a `DispatchData` ...) to the hasher.
    ///
    /// Region by region through their bytes: handing `data` to swift-crypto's generic
    /// `update(data:)` from here, where its type is not known, allocated per call.
    package mutating func update(data: some DataProtocol) {
        for region in data.regions {
            region.withUnsafeBytes { update($0) }
        }
    }

    /// Returns the digest of everything fed so far (``digestLength`` bytes), and starts over.
    package mutating func finalize() -> [UInt8] {
        finalizeDigest().withUnsafeBytes { Array($0) }
    }

    /// swift-crypto's digest of everything fed so far; starts over.
    mutating func finalizeDigest() -> Function.Digest {
        let digest = (hasher ?? Function()).finalize()
        hasher = nil
        return digest
    }

    /// The digest of `bytes`.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = Function()
        hasher.update(bufferPointer: bytes)
        return hasher.finalize().withUnsafeBytes { Array($0) }
    }

    /// The digest of `data`.
    package static func hash(data: some DataProtocol) -> [UInt8] {
        if let region = data.regions.first, data.regions.count == 1 {
            return region.withUnsafeBytes { hash($0) }
        }
        var hasher = Self()
        hasher.update(data: data)
        return hasher.finalize()
    }
}

extension StreamingDigest: Sendable where Function: Sendable {}
