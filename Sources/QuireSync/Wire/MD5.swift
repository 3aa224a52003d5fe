import Crypto
import Foundation

/// MD5 (RFC 1321), one-shot, computed by swift-crypto (`Insecure.MD5`).
///
/// CouchDB names attachment contents by `md5-<base64>`; Quire checks those digests when a
/// peer sends attachment data. Not for security.
package enum MD5 {
    /// The 16-byte digest of `bytes`.
    package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = Insecure.MD5()
        let hashedInPlace = bytes.withContiguousStorageIfAvailable { buffer in
            hasher.update(bufferPointer: UnsafeRawBufferPointer(buffer))
            return true
        }
        if hashedInPlace == nil { hasher.update(data: Array(bytes)) }
        return Array(hasher.finalize())
    }
}
