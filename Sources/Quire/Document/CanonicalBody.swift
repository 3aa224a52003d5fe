/// A body's canonical JSON bytes as a save stores and digests them: the text a document was
/// made from when it was canonical already (no copy), or bytes written for it.
enum CanonicalBody {
    case text(String)
    case bytes([UInt8])

    /// The tombstone's body.
    static let empty = CanonicalBody.bytes(Array("{}".utf8))

    /// Runs `body` over the bytes, valid only inside it.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch self {
        case .bytes(let bytes):
            return try bytes.withUnsafeBytes(body)
        case .text(var text):
            return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        }
    }
}
