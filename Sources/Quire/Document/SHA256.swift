import Crypto
import Foundation

/// SHA-256 (FIPS 180-4), streaming, computed by swift-crypto (BoringSSL, with the processor's
/// SHA instructions where there are some).
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(data: chunk1)
/// hasher.update(data: chunk2)
/// let digest = hasher.finalize()   // 32 bytes
/// ```
package struct SHA256: Sendable {
    /// The digest length in bytes.
    package static let digestLength = Crypto.SHA256.byteCount

    /// Made on the first update and dropped by `finalize`: each swift-crypto hasher allocates
    /// its BoringSSL context, so starting over does not make one that a one-shot digest never
    /// uses.
    private var hasher: Crypto.SHA256?

    /// A hasher that has seen no input.
    package init() {}

    /// Feeds bytes to the hasher; any chunking gives the same digest.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        if hasher == nil { hasher = Crypto.SHA256() }
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

    /// Returns the 32-byte digest of everything fed so far, and starts over.
    package mutating func finalize() -> [UInt8] {
        let digest = (hasher ?? Crypto.SHA256()).finalize()
        hasher = nil
        return digest.withUnsafeBytes { Array($0) }
    }

    /// The digest of `bytes`.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = Crypto.SHA256()
        hasher.update(bufferPointer: bytes)
        return hasher.finalize().withUnsafeBytes { Array($0) }
    }

    /// The digest of `data`.
    package static func hash(data: some DataProtocol) -> [UInt8] {
        if let region = data.regions.first, data.regions.count == 1 {
            return region.withUnsafeBytes { hash($0) }
        }
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }
}
