import Foundation
import Quire

/// A dataset line that needs no parsing: `{"_id":"<ID>",` and then the rest of a canonical
/// body, which is how Quire's own dataset writer and test-kit datasets write their lines.
///
/// The body is the line without its `"_id"` member. When that text is canonical JSON (see
/// `CanonicalJSON`: the exact bytes Quire's writer would write for it), parsing it and writing
/// it back would give the same bytes, so the loader takes it as it is. Any other line (an ID
/// with escapes or not first, a body with whitespace or unsorted keys, invalid UTF-8, a blob
/// reference to collect) is left to the full reader, which also names whatever is wrong.
struct CanonicalDatasetLine {
    /// The document ID, the `_id` string.
    let id: String
    /// The body's canonical JSON text, without `_id`.
    let body: String

    private static let prefix = Array(#"{"_id":""#.utf8)
    /// What follows the `@` of a `"@type"` key.
    private static let typeKeyTail = Array(#"type""#.utf8)

    /// The ID and body of `line`, or nil when the line must go through the full reader.
    /// With `readsBlobReferences`, a body that has an `"@type"` key anywhere goes there too,
    /// which collects its blob references.
    init?(_ line: ArraySlice<UInt8>, readsBlobReferences: Bool) {
        let prefix = Self.prefix
        guard line.count > prefix.count + 2, line.starts(with: prefix) else { return nil }
        let idStart = line.startIndex + prefix.count
        // The ID runs to the next quote; escapes and control characters go the full way.
        var idEnd = idStart
        while idEnd < line.endIndex {
            let byte = line[idEnd]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            idEnd += 1
        }
        guard idEnd > idStart, idEnd + 1 < line.endIndex else { return nil }
        // The members after the ID, from the comma's next byte; none when `}` closes the line.
        let members: ArraySlice<UInt8>
        switch line[idEnd + 1] {
        case UInt8(ascii: "}"):
            members = line[(idEnd + 1)...]
        case UInt8(ascii: ","):
            // A member must follow the comma: `{"_id":"a",}` is no JSON.
            guard idEnd + 2 < line.endIndex, line[idEnd + 2] == UInt8(ascii: "\"") else { return nil }
            members = line[(idEnd + 2)...]
        default:
            return nil
        }
        // The body is `{` and the members after the ID.
        guard let id = Self.exactString(line[idStart..<idEnd]),
            var body = Self.exactString(members, after: UInt8(ascii: "{")),
            body.withUTF8({ text in
                !(readsBlobReferences && Self.mayHoldBlobReference(text)) && CanonicalJSON.isCanonicalObject(text)
            })
        else { return nil }
        self.id = id
        self.body = body
    }

    /// `lead` (when given) and then `bytes`, as a String, when they are valid UTF-8. A String
    /// repairs invalid UTF-8 as it is made, so one whose bytes differ from those given is
    /// refused.
    private static func exactString(_ bytes: ArraySlice<UInt8>, after lead: UInt8? = nil) -> String? {
        let offset = lead == nil ? 0 : 1
        let count = offset + bytes.count
        var text = bytes.withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: count) { text in
                if let lead { text[0] = lead }
                UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(text)[offset...]).copyMemory(
                    from: bytes)
                return count
            }
        }
        let unchanged = text.withUTF8 { text in
            guard text.count == count, let base = text.baseAddress else { return false }
            return bytes.withUnsafeBytes { bytes in
                guard let original = bytes.baseAddress else { return true }
                return memcmp(base + offset, original, bytes.count) == 0
            }
        }
        return unchanged ? text : nil
    }

    /// Whether the canonical-looking `bytes` have `"@type"` anywhere, as a blob reference's key
    /// would be written. `memchr` looks for the `@`, rare in bodies.
    private static func mayHoldBlobReference(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var start = 1
        while start < bytes.count, let found = memchr(base + start, Int32(UInt8(ascii: "@")), bytes.count - start) {
            let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            if base[at - 1] == UInt8(ascii: "\""), bytes[(at + 1)...].starts(with: typeKeyTail) { return true }
            start = at + 1
        }
        return false
    }
}
