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
        guard let source = json.baseAddress, json.count > 0 else { return try body(json) }
        return try withUnsafeTemporaryAllocation(byteCount: json.count, alignment: 1) { buffer in
            let count = quire_body_pack(
                source.assumingMemoryBound(to: UInt8.self), json.count,
                buffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
            return try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Runs `body` over the JSON of the stored body `stored`, valid only inside it: one pass that
    /// quotes the bare keys again, into a buffer of twice the stored size (a bare key takes at
    /// least two bytes, `k:`, and gains two), on the stack for a few KB.
    static func withJSON<Result>(
        of stored: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        guard let source = stored.baseAddress, stored.count > 0 else { return try body(stored) }
        return try withUnsafeTemporaryAllocation(byteCount: 2 * stored.count, alignment: 1) { buffer in
            let count = quire_body_unpack(
                source.assumingMemoryBound(to: UInt8.self), stored.count,
                buffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
            return try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
