import CQuireFTS
import Foundation

/// A document body as the store holds it (JSON text), copied out of its row and read by
/// path: looking up one property skips over the text to it, without a tape and without
/// building or validating the values it passes. Only what the reader asks for is parsed
/// (and validated): a string when it is read, a nested object's members when it is looked
/// into, the whole of an object for ``tape(ofValueAt:)`` (counts, keys, whole values).
///
/// The text is canonical JSON, as the store writes every body (``CanonicalJSON``), in its stored
/// form (``StoredBody``: identifier keys without their quotes; a body stored before schema
/// version 7 has them quoted): keys unique and in the byte order of their UTF-8, so a lookup
/// compares bytes and stops at the first key that is not before the one asked for
/// (``member(_:inObjectAt:)``); a tape is made of the JSON, quotes restored. Keys are never
/// normalised, as ``JSONKey`` has them. Text that is not JSON reads as missing values, never
/// as a crash; text that is JSON but not canonical (which no write path stores) may read
/// members as missing.
///
/// Immutable after it is made, so it may be shared between threads (as the Sendable objects
/// holding it do; a ManagedBuffer cannot say so itself).
///
/// The text lives in the object's own allocation, after its header (one allocation a read
/// where there were two), followed by the row's revision ID when the reader gives it
/// (``revisionID``): a document made by a read then keeps its revision ID as bytes, and
/// makes a string of it only when asked.
final class StoredJSON: ManagedBuffer<StoredJSONHeader, UInt8> {
    // The header and the bytes are never written after `make`, and readers only read. Both are
    // reached through pointers: the header, a stored class property, would be checked for
    // exclusive access at every byte read.

    /// Copies `text` (not empty), then `revisionID`, the revision ID of the row.
    static func make(
        copying text: UnsafeRawBufferPointer, revisionID: UnsafeRawBufferPointer? = nil, blobStore: BlobStore?
    ) -> StoredJSON {
        let trailerCount = revisionID?.count ?? 0
        let buffer = create(minimumCapacity: max(text.count + trailerCount, 1)) { _ in
            StoredJSONHeader(
                count: text.count, revisionIDCount: revisionID == nil ? -1 : trailerCount, blobStore: blobStore)
        }
        buffer.withUnsafeMutablePointerToElements { bytes in
            if let source = text.baseAddress, !text.isEmpty {
                bytes.initialize(from: source.assumingMemoryBound(to: UInt8.self), count: text.count)
            }
            if let source = revisionID?.baseAddress, trailerCount > 0 {
                (bytes + text.count).initialize(from: source.assumingMemoryBound(to: UInt8.self), count: trailerCount)
            }
        }
        // `create` returns a ManagedBuffer typed as the class it was called on.
        return unsafeDowncast(buffer, to: StoredJSON.self)
    }

    /// The bytes of the text: the elements of this object, which never moves.
    @inline(__always)
    private var base: UnsafeMutablePointer<UInt8> { withUnsafeMutablePointerToElements { $0 } }

    /// The length of the text.
    @inline(__always)
    var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }

    /// The blob store of the database the text was read from, for the objects read off it.
    var blobStore: BlobStore? { withUnsafeMutablePointerToHeader { $0.pointee.blobStore } }

    /// The revision ID given to ``make(copying:revisionID:blobStore:)``, as a new string; nil
    /// when none was.
    var revisionID: String? {
        let (count, trailerCount) = withUnsafeMutablePointerToHeader { ($0.pointee.count, $0.pointee.revisionIDCount) }
        guard trailerCount >= 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: base + count, count: trailerCount), as: UTF8.self)
    }

    /// The byte at `offset`, or 0 past the end.
    @inline(__always)
    func byte(at offset: Int) -> UInt8 {
        offset >= 0 && offset < count ? base[offset] : 0
    }

    /// Whether the byte at `offset` is JSON whitespace.
    @inline(__always)
    func isWhitespace(at offset: Int) -> Bool {
        switch byte(at: offset) {
        case 0x20, 0x0A, 0x0D, 0x09: true
        default: false
        }
    }

    /// The bytes of the value at `offset`, valid while this object lives.
    func bytes(ofValueAt offset: Int) -> UnsafeBufferPointer<UInt8>? {
        guard let end = end(ofValueAt: offset) else { return nil }
        return UnsafeBufferPointer(start: base + offset, count: end - offset)
    }

    /// The value at `offset` put on a tape of its own (validated in full, its bare keys quoted
    /// again: ``StoredBody``); nil when it is not JSON.
    func tape(ofValueAt offset: Int) -> JSONTape? {
        guard let bytes = bytes(ofValueAt: offset) else { return nil }
        return StoredBody.withJSON(of: UnsafeRawBufferPointer(bytes)) {
            try? JSONTape(copying: $0, blobStore: blobStore)
        }
    }

    // MARK: Scalars

    /// The string at `offset`, escapes decoded; nil when it is not a valid JSON string.
    func string(at offset: Int) -> String? {
        guard byte(at: offset) == UInt8(ascii: "\"") else { return nil }
        var parser = JSONParser(base: base, count: count)
        parser.position = offset
        return try? parser.parseString()
    }

    /// The scalar (not a container) at `offset`, or nil.
    func scalar(at offset: Int) -> JSONValue? {
        var parser = JSONParser(base: base, count: count)
        parser.position = offset
        switch byte(at: offset) {
        case UInt8(ascii: "\""): return (try? parser.parseString()).map { .string($0) }
        case UInt8(ascii: "t"): return (try? parser.expectLiteral("true")).map { .bool(true) }
        case UInt8(ascii: "f"): return (try? parser.expectLiteral("false")).map { .bool(false) }
        case UInt8(ascii: "n"): return (try? parser.expectLiteral("null")).map { .null }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try? parser.parseNumber()
        default: return nil
        }
    }

    // MARK: Objects

    /// Where a lookup ended: the offset of the member's value, no such member, or an object
    /// whose keys (or the name asked for) need the tape's comparison.
    enum Lookup {
        case found(Int)
        case missing
        case needsTape
    }

    /// The value of member `name` of the object at `offset`. Keys compare as UTF-8 bytes (escapes
    /// decoded, never normalised: `"caf\u{E9}"` and `"cafe\u{301}"` are two keys, as
    /// ``JSONKey`` has them). A stored body is canonical (see ``CanonicalJSON``: every save,
    /// pulled revision and fixture goes through the canonical writer), so its keys are unique
    /// and in byte order: the first match is the only one, and a key past `name` ends the
    /// search. `needsTape` only for text that is not JSON.
    func member(_ name: String, inObjectAt offset: Int) -> Lookup {
        var name = name
        return name.withUTF8 { wanted in
            var found: Int?
            let wellFormed = forEachMember(ofObjectAt: offset) { key, value in
                let order = Self.compare(key, wanted)
                if order == 0 { found = value }
                return order < 0
            }
            if let found { return .found(found) }
            return wellFormed ? .missing : .needsTape
        }
    }

    /// Whether the object at `offset` reads as a blob, as ``JSONTapeReader/isBlob(at:)``
    /// decides: `"@type": "blob"`, or without `@type`, all of a legacy attachment's keys
    /// (`digest`, `length`, `revpos`, `stub`). Keys are compared as bytes, no string made, in
    /// one pass that ends at the first key that decides (the keys being in byte order).
    func isBlob(at offset: Int) -> Bool {
        var type: Int?
        // The keys a blob needs, in byte order (see `blobKey(_:)`); `@type` alone decides when
        // present.
        var next = 0
        var legacy = false
        let wellFormed = forEachMember(ofObjectAt: offset) { key, value in
            while let wanted = Self.blobKey(next) {
                let order = Self.compare(key, wanted)
                if order < 0 { return true }
                if order == 0 {
                    if next == 0 {
                        type = value
                        return false
                    }
                    next += 1
                    if Self.blobKey(next) == nil {
                        legacy = true
                        return false
                    }
                    return true
                }
                // Past a key the blob needs: missing, unless it was `@type`, which may be absent.
                if next > 0 { return false }
                next += 1
            }
            return false
        }
        guard wellFormed else {
            return tape(ofValueAt: offset)?.read { $0.isBlob(at: 0) } ?? false
        }
        if let type { return string(at: type) == "blob" }
        return legacy
    }

    /// `@type`, then the keys of a legacy attachment, in byte order; nil past the last.
    @inline(__always)
    private static func blobKey(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
        switch index {
        case 0: bytes("@type")
        case 1: bytes("digest")
        case 2: bytes("length")
        case 3: bytes("revpos")
        case 4: bytes("stub")
        default: nil
        }
    }

    /// Three-way comparison of two keys' bytes: the canonical order of plain keys.
    @inline(__always)
    private static func compare(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Int {
        let shorter = min(lhs.count, rhs.count)
        if shorter > 0, let left = lhs.baseAddress, let right = rhs.baseAddress {
            let order = memcmp(left, right, shorter)
            if order != 0 { return Int(order) }
        }
        return lhs.count - rhs.count
    }

    @inline(__always)
    private static func bytes(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Calls `body` with the bytes of each key of the object at `offset` (escapes decoded) and
    /// the offset of its value, in text order, until `body` returns false; false when the text
    /// met is not an object's.
    @inline(__always)
    private func forEachMember(
        ofObjectAt offset: Int, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Bool
    ) -> Bool {
        guard byte(at: offset) == UInt8(ascii: "{") else { return false }
        var position = skipWhitespace(from: offset + 1)
        if byte(at: position) == UInt8(ascii: "}") { return true }
        while true {
            let goOn: Bool
            if quire_body_is_key_start(byte(at: position)) != 0 {
                // A bare key (``StoredBody``): an identifier, then its colon.
                var keyEnd = position + 1
                while quire_body_is_key_byte(byte(at: keyEnd)) != 0 { keyEnd += 1 }
                guard byte(at: keyEnd) == UInt8(ascii: ":") else { return false }
                let value = skipWhitespace(from: keyEnd + 1)
                goOn = body(UnsafeBufferPointer(start: base + position, count: keyEnd - position), value)
                position = value
            } else {
                guard byte(at: position) == UInt8(ascii: "\"") else { return false }
                let keyStart = position + 1
                var keyEnd = keyStart
                var escaped = false
                while true {
                    let byte = self.byte(at: keyEnd)
                    if byte == UInt8(ascii: "\"") { break }
                    if byte == UInt8(ascii: "\\") {
                        escaped = true
                        keyEnd += 2
                        continue
                    }
                    // Control bytes and the end of the text (read as 0): not JSON.
                    guard byte >= 0x20 else { return false }
                    keyEnd += 1
                }
                let colon = skipWhitespace(from: keyEnd + 1)
                guard byte(at: colon) == UInt8(ascii: ":") else { return false }
                let value = skipWhitespace(from: colon + 1)
                if escaped {
                    // Rare (a quote, backslash or control character in a key): compared decoded.
                    guard var key = string(at: position) else { return false }
                    goOn = key.withUTF8 { body($0, value) }
                } else {
                    goOn = body(UnsafeBufferPointer(start: base + keyStart, count: keyEnd - keyStart), value)
                }
                position = value
            }
            guard goOn else { return true }
            guard let end = end(ofValueAt: position) else { return false }
            position = skipWhitespace(from: end)
            switch byte(at: position) {
            case UInt8(ascii: ","): position = skipWhitespace(from: position + 1)
            case UInt8(ascii: "}"): return true
            default: return false
            }
        }
    }

    // MARK: Skipping

    @inline(__always)
    private func skipWhitespace(from offset: Int) -> Int {
        var position = offset
        while position < count {
            switch base[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return position
            }
        }
        return position
    }

    /// The offset just past the value at `offset`, found by matching brackets outside
    /// strings; nil when the text ends first.
    func end(ofValueAt offset: Int) -> Int? {
        guard offset < count else { return nil }
        switch base[offset] {
        case UInt8(ascii: "\""):
            return end(ofStringAt: offset)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var position = offset
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while position < count {
                if count - position >= 8 {
                    // Eight bytes at a time up to the next quote or bracket: `[` and `{`, `]`
                    // and `}` differ in one bit (0x20), so two tests cover the four.
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                    let folded = word | (ones &* 0x20)
                    let quotes = word ^ (ones &* 0x22)
                    let opens = folded ^ (ones &* 0x7B)
                    let closes = folded ^ (ones &* 0x7D)
                    let flags =
                        ((quotes &- ones) & ~quotes | (opens &- ones) & ~opens | (closes &- ones) & ~closes) & highs
                    if flags == 0 {
                        position += 8
                        continue
                    }
                    position += flags.trailingZeroBitCount / 8
                }
                switch base[position] {
                case UInt8(ascii: "\""):
                    guard let end = end(ofStringAt: position) else { return nil }
                    position = end
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    position += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    position += 1
                    if depth == 0 { return position }
                default:
                    position += 1
                }
            }
            return nil
        default:
            // A number or a literal: up to the next delimiter.
            var position = offset
            while position < count {
                switch base[position] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09:
                    return position > offset ? position : nil
                default: position += 1
                }
            }
            return position > offset ? position : nil
        }
    }

    /// The offset just past the closing quote of the string whose opening quote is at
    /// `offset`, eight bytes at a time through runs without a quote or a backslash.
    private func end(ofStringAt offset: Int) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var position = offset + 1
        while position < count {
            if count - position >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                let quotes = word ^ (ones &* 0x22)
                let backslashes = word ^ (ones &* 0x5C)
                // The lowest flagged byte is exact (borrows only add flags above a real one).
                let flags = ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & highs
                if flags == 0 {
                    position += 8
                    continue
                }
                position += flags.trailingZeroBitCount / 8
            }
            switch base[position] {
            case UInt8(ascii: "\""): return position + 1
            case UInt8(ascii: "\\"): position += 2
            default: position += 1
            }
        }
        return nil
    }
}

/// What a ``StoredJSON`` holds before its bytes.
struct StoredJSONHeader {
    /// The length of the text.
    let count: Int
    /// The length of the revision ID after the text; -1 for none.
    let revisionIDCount: Int
    /// The blob store of the database the text was read from.
    let blobStore: BlobStore?
}
