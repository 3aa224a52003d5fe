import Foundation

/// One value found in JSON text: its kind, where its bytes are, and, for a container, how far
/// it reaches on the tape.
///
/// Objects are followed by their members as key, value, key, value...; arrays by their
/// elements; a container's `next` is the position just past its last descendant, so any value
/// can be skipped in one step.
struct JSONTapeEntry {
    enum Kind: UInt8 {
        case null, falseValue, trueValue, int, double, string, array, object
    }

    /// Facts about strings (``JSONParser/StringTraits``) and objects (below).
    struct Flags: OptionSet {
        let rawValue: UInt8
        /// String: has an escape.
        static let escaped = Flags(rawValue: 1)
        /// String: has bytes above 0x7F.
        static let nonASCII = Flags(rawValue: 2)
        /// Object: every key is ASCII without escapes, and no key repeats, so keys compare as
        /// bytes (and byte order is the canonical order).
        static let plainKeys = Flags(rawValue: 4)
        /// Object: ``plainKeys``, and the keys are in canonical (byte) order already.
        static let sortedKeys = Flags(rawValue: 8)
    }

    var kind: Kind
    var flags: Flags = []
    /// String: offset of the first byte after the opening quote.
    var start: UInt32 = 0
    /// String: byte length without quotes. Container: number of members or elements.
    var count: UInt32 = 0
    /// Int: the value. Double: its bit pattern. Container: the tape position after it.
    var payload: UInt64 = 0
}

// MARK: - Building

extension JSONParser {
    /// Validates the whole input as one JSON value and appends what it holds to `tape`.
    /// With `classifyKeys`, marks objects whose keys are plain or sorted (see
    /// ``JSONTapeEntry/Flags``) and returns false when some object's keys are not plain.
    mutating func scan(into tape: inout [JSONTapeEntry], classifyKeys: Bool) throws -> Bool {
        var open: [Int] = []
        var allPlain = true
        nextValue: while true {
            skipWhitespace()
            guard position < end else { throw endOfInput("expected a value") }
            switch base[position] {
            case UInt8(ascii: "{"):
                try checkDepth(open.count)
                position += 1
                tape.append(JSONTapeEntry(kind: .object))
                skipWhitespace()
                if position < end, base[position] == UInt8(ascii: "}") {
                    position += 1
                    tape[tape.count - 1].flags = [.plainKeys, .sortedKeys]
                    tape[tape.count - 1].payload = UInt64(tape.count)
                } else {
                    open.append(tape.count - 1)
                    try scanKey(after: "'{'", into: &tape)
                    continue nextValue
                }
            case UInt8(ascii: "["):
                try checkDepth(open.count)
                position += 1
                tape.append(JSONTapeEntry(kind: .array))
                skipWhitespace()
                if position < end, base[position] == UInt8(ascii: "]") {
                    position += 1
                    tape[tape.count - 1].payload = UInt64(tape.count)
                } else {
                    open.append(tape.count - 1)
                    continue nextValue
                }
            case UInt8(ascii: "\""):
                tape.append(try scanString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                switch try parseNumber() {
                case .int(let number): tape.append(JSONTapeEntry(kind: .int, payload: UInt64(bitPattern: number)))
                case .double(let number): tape.append(JSONTapeEntry(kind: .double, payload: number.bitPattern))
                default: throw Self.error(at: position, "a number that is neither an integer nor a double")
                }
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                tape.append(JSONTapeEntry(kind: .trueValue))
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                tape.append(JSONTapeEntry(kind: .falseValue))
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                tape.append(JSONTapeEntry(kind: .null))
            case let byte:
                throw Self.error(at: position, "unexpected \(Self.describe(byte)), expected a value")
            }

            // A value is complete: count it in the innermost open container, closing as many
            // containers as the input closes.
            while let container = open.last {
                tape[container].count += 1
                let isObject = tape[container].kind == .object
                skipWhitespace()
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let expected =
                    isObject
                    ? "expected ',' or '}' after object member"
                    : "expected ',' or ']' after array element"
                guard position < end else { throw endOfInput(expected) }
                let byte = base[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    if isObject { try scanKey(after: "','", into: &tape) }
                    continue nextValue
                }
                guard byte == closer else {
                    throw Self.error(at: position, "\(expected), found \(Self.describe(byte))")
                }
                position += 1
                open.removeLast()
                tape[container].payload = UInt64(tape.count)
                if isObject, classifyKeys {
                    let flags = tape.withUnsafeBufferPointer {
                        JSONTapeReader(base: base, tape: $0).keyFlags(ofObjectAt: container)
                    }
                    tape[container].flags = flags
                    if !flags.contains(.plainKeys) { allPlain = false }
                }
            }

            skipWhitespace()
            guard position == end else {
                throw Self.error(at: position, "unexpected \(Self.describe(base[position])) after the top-level value")
            }
            return allPlain
        }
    }

    /// Reads `"key" :` onto the tape and leaves the position at the member's value.
    private mutating func scanKey(after what: String, into tape: inout [JSONTapeEntry]) throws {
        skipWhitespace()
        try checkKeyStart(after: what)
        tape.append(try scanString())
        try expectColon()
    }

    private mutating func scanString() throws -> JSONTapeEntry {
        let start = position + 1
        let traits = try skipString()
        var flags: JSONTapeEntry.Flags = []
        if traits.contains(.escaped) { flags.insert(.escaped) }
        if traits.contains(.nonASCII) { flags.insert(.nonASCII) }
        return JSONTapeEntry(kind: .string, flags: flags, start: UInt32(start), count: UInt32(position - 1 - start))
    }
}

// MARK: - Reading

/// Reads values off a tape and the bytes it was scanned from. Both must outlive it.
struct JSONTapeReader {
    let base: UnsafePointer<UInt8>
    let tape: UnsafeBufferPointer<JSONTapeEntry>

    /// The tape position after the value at `index`.
    @inline(__always)
    func next(after index: Int) -> Int {
        let entry = tape[index]
        return entry.kind == .object || entry.kind == .array ? Int(entry.payload) : index + 1
    }

    /// The bytes of the string at `index`, without quotes (escapes not decoded).
    @inline(__always)
    func rawBytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + Int(tape[index].start), count: Int(tape[index].count))
    }

    /// Three-way comparison of the raw bytes of two strings: the canonical order of plain keys.
    @inline(__always)
    func compareRaw(_ lhs: Int, _ rhs: Int) -> Int {
        let left = tape[lhs]
        let right = tape[rhs]
        let shorter = Int(min(left.count, right.count))
        let order = shorter == 0 ? 0 : memcmp(base + Int(left.start), base + Int(right.start), shorter)
        if order != 0 { return Int(order) }
        return Int(left.count) - Int(right.count)
    }

    /// Whether the keys of the object at `index` are plain, and whether they are sorted.
    func keyFlags(ofObjectAt index: Int) -> JSONTapeEntry.Flags {
        let count = Int(tape[index].count)
        var key = index + 1
        var previous = -1
        var sorted = true
        for _ in 0..<count {
            guard tape[key].flags.isDisjoint(with: [.escaped, .nonASCII]) else { return [] }
            if previous >= 0, compareRaw(previous, key) >= 0 { sorted = false }
            previous = key
            key = next(after: key + 1)
        }
        if sorted { return [.plainKeys, .sortedKeys] }
        // Unsorted plain keys are still plain if none repeats.
        let order = sortedKeys(ofObjectAt: index)
        for position in order.indices.dropFirst() where compareRaw(order[position - 1], order[position]) == 0 {
            return []
        }
        return .plainKeys
    }

    /// The tape positions of the keys of the object at `index`, in byte order of the keys.
    func sortedKeys(ofObjectAt index: Int) -> [Int] {
        var keys: [Int] = []
        keys.reserveCapacity(Int(tape[index].count))
        var key = index + 1
        for _ in 0..<tape[index].count {
            keys.append(key)
            key = next(after: key + 1)
        }
        if !tape[index].flags.contains(.sortedKeys) {
            keys.sort { compareRaw($0, $1) < 0 }
        }
        return keys
    }

    // MARK: Values

    /// The string at `index`, escapes decoded.
    func string(at index: Int) -> String {
        let entry = tape[index]
        guard entry.flags.contains(.escaped) else {
            return String(decoding: rawBytes(at: index), as: UTF8.self)
        }
        // Validated when the tape was made, so this cannot fail.
        var parser = JSONParser(base: base, count: Int(entry.start) + Int(entry.count) + 1)
        parser.position = Int(entry.start) - 1
        return (try? parser.parseString()) ?? ""
    }

    /// The value at `index`, built in full.
    func value(at index: Int) -> JSONValue {
        let entry = tape[index]
        switch entry.kind {
        case .null: return .null
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .int: return .int(Int64(bitPattern: entry.payload))
        case .double: return .double(Double(bitPattern: entry.payload))
        case .string: return .string(string(at: index))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(entry.count))
            var element = index + 1
            for _ in 0..<entry.count {
                elements.append(value(at: element))
                element = next(after: element)
            }
            return .array(elements)
        case .object:
            return .object(object(at: index))
        }
    }

    /// The members of the object at `index`. In input order, so a key repeated byte for byte
    /// keeps its last value; keys that differ only in Unicode normalisation are two members.
    func object(at index: Int) -> JSONObject {
        let entry = tape[index]
        var members = JSONObject(minimumCapacity: Int(entry.count))
        var key = index + 1
        for _ in 0..<entry.count {
            members[string(at: key)] = value(at: key + 1)
            key = next(after: key + 1)
        }
        return members
    }

    /// The tape position of the value of member `name` of the object at `index`, or nil.
    func member(_ name: String, inObjectAt index: Int) -> Int? {
        let entry = tape[index]
        var name = name
        return name.withUTF8 { wanted -> Int? in
            if entry.flags.contains(.plainKeys), wanted.allSatisfy({ $0 < 0x80 }) {
                // Plain keys are unique ASCII: bytes decide, and sorted keys can stop early.
                let sorted = entry.flags.contains(.sortedKeys)
                var key = index + 1
                for _ in 0..<entry.count {
                    let stored = tape[key]
                    let shorter = min(Int(stored.count), wanted.count)
                    var order = 0
                    if shorter > 0, let wantedBase = wanted.baseAddress {
                        order = Int(memcmp(base + Int(stored.start), wantedBase, shorter))
                    }
                    if order == 0 { order = Int(stored.count) - wanted.count }
                    if order == 0 { return key + 1 }
                    if sorted, order > 0 { return nil }
                    key = next(after: key + 1)
                }
                return nil
            }
            // Otherwise compare the decoded keys' UTF-8 bytes, as fleece compares keys: keys
            // that differ only in Unicode normalisation are two keys. The last one wins.
            var found: Int?
            var key = index + 1
            for _ in 0..<entry.count {
                if tape[key].flags.contains(.escaped) {
                    if string(at: key).utf8.elementsEqual(wanted) { found = key + 1 }
                } else if rawBytes(at: key).elementsEqual(wanted) {
                    found = key + 1
                }
                key = next(after: key + 1)
            }
            return found
        }
    }

    /// The members of the object at `index` in canonical order: keys decoded and ordered by
    /// their UTF-8 bytes, a key repeated byte for byte kept once with its last value. Keys are
    /// never normalised: `"caf\u00e9"` and `"cafe\u0301"` are two members, as in fleece,
    /// which compares keys as bytes (and as Couchbase Lite keeps them).
    func canonicalMembers(ofObjectAt index: Int) -> [(key: String, value: Int)] {
        var members: [(key: String, value: Int)] = []
        members.reserveCapacity(Int(tape[index].count))
        var seen: [[UInt8]: Int] = [:]
        var key = index + 1
        for _ in 0..<tape[index].count {
            let name = string(at: key)
            let bytes = Array(name.utf8)
            if let earlier = seen[bytes] {
                members[earlier].value = key + 1
            } else {
                seen[bytes] = members.count
                members.append((name, key + 1))
            }
            key = next(after: key + 1)
        }
        members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return members
    }

    /// The number of distinct keys of the object at `index` (keys compared as bytes).
    func memberCount(ofObjectAt index: Int) -> Int {
        tape[index].flags.contains(.plainKeys) ? Int(tape[index].count) : canonicalMembers(ofObjectAt: index).count
    }

    /// The distinct keys of the object at `index` (compared as bytes), in no particular order.
    func keys(ofObjectAt index: Int) -> [String] {
        guard tape[index].flags.contains(.plainKeys) else { return canonicalMembers(ofObjectAt: index).map(\.key) }
        var keys: [String] = []
        keys.reserveCapacity(Int(tape[index].count))
        var key = index + 1
        for _ in 0..<tape[index].count {
            keys.append(String(decoding: rawBytes(at: key), as: UTF8.self))
            key = next(after: key + 1)
        }
        return keys
    }
}

// MARK: - The owning form

/// JSON text validated once, kept with its tape, read lazily: the form of document bodies
/// read from the store. Looking up one property scans the few tape entries on its path; no
/// dictionary, array or string is built for the rest.
///
/// Immutable after it is made, so it may be shared between threads.
final class JSONTape: @unchecked Sendable {
    // Safe because `base` and `entries` are never mutated after init, and readers only read.
    private let base: UnsafeMutablePointer<UInt8>
    private let byteCount: Int
    private let entries: [JSONTapeEntry]
    /// Every object has plain keys (see ``JSONTapeEntry/Flags/plainKeys``).
    let hasPlainKeys: Bool
    /// The blob store of the database the text was read from, for the objects read off it.
    let blobStore: BlobStore?

    /// Copies and validates `text`; throws ``QuireError/Code/corruptData`` as
    /// ``JSONReader`` does.
    init(copying text: UnsafeRawBufferPointer, blobStore: BlobStore? = nil) throws {
        self.blobStore = blobStore
        guard let source = text.baseAddress, text.count > 0 else {
            throw JSONParser.error(at: 0, "unexpected end of input, expected a value")
        }
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: text.count)
        copy.initialize(from: source.assumingMemoryBound(to: UInt8.self), count: text.count)
        var tape: [JSONTapeEntry] = []
        tape.reserveCapacity(text.count / 8 + 4)
        var parser = JSONParser(base: copy, count: text.count)
        do {
            hasPlainKeys = try parser.scan(into: &tape, classifyKeys: true)
        } catch {
            copy.deallocate()
            throw error
        }
        base = copy
        byteCount = text.count
        entries = tape
    }

    deinit {
        base.deallocate()
    }

    /// Runs `body` with a reader over this tape.
    @inline(__always)
    func read<T>(_ body: (JSONTapeReader) throws -> T) rethrows -> T {
        try entries.withUnsafeBufferPointer { tape in
            try body(JSONTapeReader(base: base, tape: tape))
        }
    }

    /// The kind of the value at `index`.
    func kind(at index: Int) -> JSONTapeEntry.Kind { entries[index].kind }

    /// The exact bytes the tape was made from.
    var text: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: byteCount) }
}

extension JSONTapeReader {
    /// Whether the object at `index` reads as a blob (`"@type": "blob"`, or a legacy
    /// attachment's `digest`, `revpos`, `stub` and `length` without `@type`), as
    /// ``Blob/isBlob(json:)`` decides for built objects.
    func isBlob(at index: Int) -> Bool {
        if let type = member("@type", inObjectAt: index) {
            return tape[type].kind == .string && string(at: type) == "blob"
        }
        return ["digest", "revpos", "stub", "length"].allSatisfy { member($0, inObjectAt: index) != nil }
    }
}

extension JSONTape {
    /// The canonical JSON (``JSONWriter``'s sorted form) of the value at `index`, written
    /// straight from the tape. Keys are ordered and compared by their UTF-8 bytes, never
    /// normalised, so keys that differ only in Unicode normalisation both stay (see
    /// ``JSONTapeReader/canonicalMembers(ofObjectAt:)``), as they do in built ``JSONObject``s.
    /// Nil never happens now; the optional stays for callers written when non-plain keys were
    /// built instead.
    func canonicalBytes(at index: Int) -> [UInt8]? {
        read { reader in
            var emitter = JSONEmitter(sortedKeys: true, capacity: text.count + 16)
            defer { emitter.output.free() }
            emitter.emit(reader, at: index)
            return Array(emitter.output.bytes)
        }
    }

    /// ``canonicalBytes(at:)`` as text.
    func canonicalText(at index: Int) -> String? {
        canonicalBytes(at: index).map { String(decoding: $0, as: UTF8.self) }
    }
}
