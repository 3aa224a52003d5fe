import Foundation

/// Recognises JSON text that is already canonical: the exact bytes ``JSONWriter`` (and the
/// tape's writer) would write for it. Such text is its own canonical form, so a document made
/// from it is stored and digested as it came, without a tape, a copy or a second writing.
///
/// Canonical means: one object at the top level; no whitespace outside strings; object keys
/// of ASCII without escapes, each greater than the one before in byte order (so sorted and
/// unique); strings whose escapes are the writer's own (`\"`, `\\`, `\b`, `\t`, `\n`, `\f`,
/// `\r`, and `\u00xx` in lower case for the other control characters); integers that fit
/// `Int64` (not `-0`); doubles in Swift's shortest form with a fraction or an exponent. Apps
/// send that text when they write JSON with sorted keys, and Quire hands it out from
/// `toJSON()`, the fixture loader and the replicator.
enum CanonicalJSON {
    /// One open container of the scan: for an object, where its last key is (start < 0
    /// before the first).
    private struct Frame {
        var isObject: Bool
        var keyStart: Int32
        var keyCount: Int32
    }

    /// Whether `text` is one valid JSON object in canonical form whose top-level keys do not
    /// start with `_` (those are checked as reserved keys on the full path). False for any
    /// other text, invalid text included: the full reader then reports what is wrong.
    static func isCanonicalObject(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress, text.count >= 2, base[0] == UInt8(ascii: "{") else { return false }
        let maximumDepth = JSONReader.maximumDepth
        return withUnsafeTemporaryAllocation(of: Frame.self, capacity: maximumDepth) { stack in
            var parser = JSONParser(base: base, count: text.count)
            var depth = 0
            nextValue: while true {
                guard parser.position < parser.end else { return false }
                switch base[parser.position] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = base[parser.position] == UInt8(ascii: "{")
                    guard depth < maximumDepth else { return false }
                    parser.position += 1
                    guard parser.position < parser.end else { return false }
                    if base[parser.position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        parser.position += 1
                    } else {
                        stack[depth] = Frame(isObject: isObject, keyStart: -1, keyCount: 0)
                        depth += 1
                        if isObject {
                            guard scanKey(&parser, frame: &stack[depth - 1], topLevel: depth == 1) else { return false }
                        }
                        continue nextValue
                    }
                case UInt8(ascii: "\""):
                    let start = parser.position + 1
                    guard let traits = try? parser.skipString() else { return false }
                    if traits.contains(.escaped),
                        !hasOnlyWriterEscapes(
                            UnsafeBufferPointer(start: base + start, count: parser.position - 1 - start))
                    {
                        return false
                    }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let start = parser.position
                    switch try? parser.parseNumber() {
                    case .int: break
                    case .double(let number):
                        var written = number.description
                        let same = written.withUTF8 { written in
                            guard written.count == parser.position - start, let bytes = written.baseAddress else {
                                return false
                            }
                            return memcmp(bytes, base + start, written.count) == 0
                        }
                        guard same else { return false }
                    default: return false
                    }
                case UInt8(ascii: "t"):
                    guard (try? parser.expectLiteral("true")) != nil else { return false }
                case UInt8(ascii: "f"):
                    guard (try? parser.expectLiteral("false")) != nil else { return false }
                case UInt8(ascii: "n"):
                    guard (try? parser.expectLiteral("null")) != nil else { return false }
                default:
                    return false
                }

                // A value is complete: close what the text closes, or go on to the next member.
                while depth > 0 {
                    guard parser.position < parser.end else { return false }
                    let byte = base[parser.position]
                    parser.position += 1
                    let isObject = stack[depth - 1].isObject
                    if byte == UInt8(ascii: ",") {
                        if isObject {
                            guard scanKey(&parser, frame: &stack[depth - 1], topLevel: depth == 1) else { return false }
                        }
                        continue nextValue
                    }
                    guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                    depth -= 1
                }
                return parser.position == parser.end
            }
        }
    }

    /// Reads `"key":` with no whitespace; the key must be plain ASCII, greater than the
    /// object's previous key, and at the top level not start with `_`.
    @inline(__always)
    private static func scanKey(_ parser: inout JSONParser, frame: inout Frame, topLevel: Bool) -> Bool {
        let base = parser.base
        guard parser.position < parser.end, base[parser.position] == UInt8(ascii: "\"") else { return false }
        let start = parser.position + 1
        guard let traits = try? parser.skipString(), traits.isEmpty else { return false }
        let count = parser.position - 1 - start
        guard parser.position < parser.end, base[parser.position] == UInt8(ascii: ":") else { return false }
        parser.position += 1
        if topLevel, count > 0, base[start] == UInt8(ascii: "_") { return false }
        if frame.keyStart >= 0 {
            // Keys are short and most differ in their first bytes: compared in place, byte by
            // byte, which costs less than a call to memcmp.
            let previousCount = Int(frame.keyCount)
            let shorter = min(previousCount, count)
            let previous = base + Int(frame.keyStart)
            let current = base + start
            var index = 0
            while index < shorter, previous[index] == current[index] { index += 1 }
            let order = index < shorter ? Int(previous[index]) - Int(current[index]) : previousCount - count
            guard order < 0 else { return false }
        }
        guard start <= Int(Int32.max), count <= Int(Int32.max) else { return false }
        frame.keyStart = Int32(start)
        frame.keyCount = Int32(count)
        return true
    }

    /// Whether every escape in a string's raw bytes (valid JSON, quotes excluded) is the one
    /// the writer would write for its character.
    private static func hasOnlyWriterEscapes(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < raw.count {
            guard raw[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            guard index + 1 < raw.count else { return false }
            switch raw[index + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "t"), UInt8(ascii: "n"),
                UInt8(ascii: "f"), UInt8(ascii: "r"):
                index += 2
            case UInt8(ascii: "u"):
                // `\u00xx` for a control character the writer has no short escape for.
                guard index + 5 < raw.count, raw[index + 2] == UInt8(ascii: "0"), raw[index + 3] == UInt8(ascii: "0"),
                    let high = lowerHex(raw[index + 4]), high <= 1, let low = lowerHex(raw[index + 5])
                else { return false }
                switch high << 4 | low {
                case 0x08, 0x09, 0x0A, 0x0C, 0x0D: return false
                default: index += 6
                }
            default:
                return false
            }
        }
        return true
    }

    @inline(__always)
    private static func lowerHex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
