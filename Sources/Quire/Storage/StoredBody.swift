import CQuireFTS

/// A body as the store keeps it (`quire_body.h`): its canonical JSON with every identifier
/// key written without quotes. `quire_body(body)` in SQL gives the JSON back, and the path
/// functions read the stored form as it is; rows stored before schema version 7 are plain JSON,
/// which is its own stored form.
enum StoredBody {
    /// Runs `body` over the stored form of the compact JSON `json`, valid only inside it (on the
    /// stack for a few KB, as `withUnsafeTemporaryAllocation` places it). The saves write it
    /// so; other writers bind their JSON through SQL's `quire_body_pack`.
    static func withStoredForm<Result>(
        of json: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        try transformed(json, capacity: json.count, quire_body_pack, body)
    }

    /// Runs `body` over the JSON of the stored body `stored`, valid only inside it: one pass that
    /// quotes the bare keys again, into a buffer of twice the stored size (a bare key takes at
    /// least two bytes, `k:`, and gains two), on the stack for a few KB.
    static func withJSON<Result>(
        of stored: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        try transformed(stored, capacity: 2 * stored.count, quire_body_unpack, body)
    }

    /// Runs `body` over what `transform` writes of `input` into a temporary buffer of `capacity`
    /// bytes (it returns the bytes written).
    private static func transformed<Result>(
        _ input: UnsafeRawBufferPointer, capacity: Int,
        _ transform: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> Int,
        _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        guard let source = input.baseAddress, input.count > 0 else { return try body(input) }
        return try withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { buffer in
            let count = transform(
                source.assumingMemoryBound(to: UInt8.self), input.count,
                buffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
            return try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
