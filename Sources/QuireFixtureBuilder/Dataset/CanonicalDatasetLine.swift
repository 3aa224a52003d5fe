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
        guard let id = Self.validString(line[idStart..<idEnd]) else { return nil }
        let body = members.withUnsafeBytes { members in
            String(unsafeUninitializedCapacity: members.count + 1) { text in
                text[0] = UInt8(ascii: "{")
                UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(text)[1...]).copyMemory(
                    from: members)
                return members.count + 1
            }
        }
        // A String repairs invalid UTF-8 as it is made: a body that changed on the way in is
        // left to the full reader.
        var text = body
        let unchanged = text.withUTF8 { text in
            text.count == members.count + 1
                && members.withUnsafeBytes { memcmp(text.baseAddress! + 1, $0.baseAddress!, $0.count) == 0 }
        }
        guard unchanged, !(readsBlobReferences && Self.mayHoldBlobReference(text)),
            text.withUTF8({ CanonicalJSON.isCanonicalObject($0) })
        else { return nil }
        self.id = id
        self.body = text
    }

    /// `bytes` as a String when they are valid UTF-8 (a String made of them is the same bytes).
    private static func validString(_ bytes: ArraySlice<UInt8>) -> String? {
        var text = String(decoding: bytes, as: UTF8.self)
        return text.withUTF8 { $0.elementsEqual(bytes) } ? text : nil
    }

    /// Whether the canonical-looking `text` has the bytes `"@type"` anywhere, as a blob
    /// reference's key would be written. `memchr` looks for the `@`, rare in bodies.
    private static func mayHoldBlobReference(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            let tail = Array("type\"".utf8)
            var start = 1
            while start < bytes.count,
                let found = memchr(base + start, Int32(UInt8(ascii: "@")), bytes.count - start)
            {
                let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                if base[at - 1] == UInt8(ascii: "\""), bytes[(at + 1)...].starts(with: tail) { return true }
                start = at + 1
            }
            return false
        }
    }
}
