import Foundation

/// Writes ``JSONValue``s as compact JSON text (no insignificant whitespace) in UTF-8.
///
/// With `sortedKeys` (the default) the output is canonical: object members are ordered by
/// the UTF-8 bytes of their keys, so equal bodies give equal bytes. Revision digests and
/// storage depend on that; turn it off only for output nobody hashes or compares.
///
/// Strings escape `"`, `\` and the control characters U+0000 to U+001F (`\b`, `\t`, `\n`,
/// `\f`, `\r` by name, the rest as `\u00XX`); `/` and non-ASCII characters are written as
/// they are. Strings are written as the UTF-8 bytes Swift holds for them, without Unicode
/// normalisation.
///
/// Doubles are written in the shortest form that reads back as the same `Double`, and always
/// with a fraction or an exponent (`2.0`, `1e+16`, `-0.0`), so that a double reads back as
/// a double and never turns into an integer. Non-finite doubles have no JSON form and are an
/// ``QuireError/Code/invalidParameter`` error naming the value and where it was; so is
/// nesting deeper than ``JSONReader/maximumDepth``, which could not be read back.
package enum JSONWriter {
    /// Returns the JSON text of `value` as UTF-8 bytes.
    package static func bytes(_ value: JSONValue, sortedKeys: Bool = true) throws -> [UInt8] {
        try bytes(value, sortedKeys: sortedKeys, maximumDepth: JSONReader.maximumDepth)
    }

    /// Returns the JSON text of `value` as UTF-8 bytes, with a nesting limit other than
    /// ``JSONReader/maximumDepth``: for messages that wrap documents, read back with
    /// `JSONReader.parse(_:maximumDepth:)` and the same limit.
    package static func bytes(_ value: JSONValue, sortedKeys: Bool = true, maximumDepth: Int) throws -> [UInt8] {
        var emitter = JSONEmitter(sortedKeys: sortedKeys)
        emitter.maximumDepth = maximumDepth
        defer { emitter.output.free() }
        do {
            try emitter.emit(value, depth: 0)
        } catch {
            throw QuireError(.invalidParameter, "cannot write JSON: \(error.problem) at \(error.path)")
        }
        return Array(emitter.output.bytes)
    }

    /// Returns the JSON text of `value`.
    package static func string(_ value: JSONValue, sortedKeys: Bool = true) throws -> String {
        String(decoding: try bytes(value, sortedKeys: sortedKeys), as: UTF8.self)
    }

    /// Appends the JSON text of `value` to `output`, which is left as it was on error.
    package static func write(_ value: JSONValue, into output: inout [UInt8], sortedKeys: Bool = true) throws {
        var emitter = JSONEmitter(sortedKeys: sortedKeys)
        defer { emitter.output.free() }
        do {
            try emitter.emit(value, depth: 0)
        } catch {
            throw QuireError(.invalidParameter, "cannot write JSON: \(error.problem) at \(error.path)")
        }
        output.append(contentsOf: emitter.output.bytes)
    }
}

extension JSONValue {
    /// The JSON text of this value as UTF-8 bytes; canonical (keys sorted, the shortest
    /// numbers that read back the same) unless `sortedKeys` is false.
    package func jsonBytes(sortedKeys: Bool = true) throws -> [UInt8] {
        try JSONWriter.bytes(self, sortedKeys: sortedKeys)
    }

    /// The JSON text of this value; canonical (keys sorted, the shortest numbers that read back
    /// the same) unless `sortedKeys` is false.
    package func jsonString(sortedKeys: Bool = true) throws -> String {
        try JSONWriter.string(self, sortedKeys: sortedKeys)
    }
}

/// A growing byte buffer written through a raw pointer: appending a byte or a run is a bounds
/// check and a store, where `Array.append` also checks uniqueness and goes through generic
/// growth (about 90 instructions a call, on the path of every save).
///
/// Not reference-counted: whoever makes one calls ``free()`` once, and never copies it.
struct JSONOutput {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    /// The bytes written so far, valid until the next write or ``free()``.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func put(_ run: UnsafeBufferPointer<UInt8>) {
        guard let source = run.baseAddress, run.count > 0 else { return }
        if capacity - count < run.count { grow(toHold: run.count) }
        (base + count).update(from: source, count: run.count)
        count += run.count
    }

    private mutating func grow(toHold extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Releases the buffer.
    func free() {
        base.deallocate()
    }
}

/// The writer's state: one growing output buffer (freed by whoever made the emitter).
struct JSONEmitter {
    /// A value that has no JSON form, with the path to it, built innermost first as the
    /// error travels out of the nested calls (so paths cost nothing unless something fails).
    struct Failure: Error {
        var problem: String
        private var components: [String] = []

        init(_ problem: String) { self.problem = problem }

        mutating func inside(_ component: String) { components.append(component) }

        /// `$`, `$.key`, `$[3]`, `$.a["odd key"][0]`.
        var path: String { "$" + components.reversed().joined() }
    }

    let sortedKeys: Bool
    var output: JSONOutput
    /// The deepest nesting written.
    var maximumDepth = JSONReader.maximumDepth

    init(sortedKeys: Bool, capacity: Int = 256) {
        self.sortedKeys = sortedKeys
        output = JSONOutput(capacity: capacity)
    }

    mutating func emit(_ value: JSONValue, depth: Int) throws(Failure) {
        switch value {
        case .null:
            append("null")
        case .bool(let flag):
            append(flag ? "true" : "false")
        case .int(let number):
            emitInteger(number)
        case .double(let number):
            guard number.isFinite else { throw Failure("the number \(number) has no JSON form") }
            // Swift's description is the shortest round-tripping form and always has a '.'
            // or an exponent for finite values ("2.0", "1e+16", "5e-324").
            var text = number.description
            text.withUTF8 { output.put($0) }
        case .string(let text):
            emitString(text)
        case .array(let elements):
            guard depth < maximumDepth else { throw Self.tooDeep(maximumDepth) }
            output.put(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.put(UInt8(ascii: ",")) }
                do {
                    try emit(element, depth: depth + 1)
                } catch var failure {
                    failure.inside("[\(index)]")
                    throw failure
                }
            }
            output.put(UInt8(ascii: "]"))
        case .object(let members):
            guard depth < maximumDepth else { throw Self.tooDeep(maximumDepth) }
            output.put(UInt8(ascii: "{"))
            if sortedKeys {
                for (index, member) in members.sortedMembers.enumerated() {
                    try emitMember(member.key, member.value, first: index == 0, depth: depth)
                }
            } else {
                var first = true
                for (key, member) in members {
                    try emitMember(key, member, first: first, depth: depth)
                    first = false
                }
            }
            output.put(UInt8(ascii: "}"))
        }
    }

    /// Writes the value at `index` of a tape whose objects all have plain keys: the bytes
    /// ``emit(_:depth:)`` writes for `reader.value(at: index)`, without building it. Plain
    /// keys are unique ASCII, so their byte order is the canonical order and their raw bytes
    /// need no escaping; a string without escapes is written as it was read, since it cannot
    /// hold a character the writer would escape.
    mutating func emit(_ reader: JSONTapeReader, at index: Int) {
        let entry = reader.tape[index]
        switch entry.kind {
        case .null: append("null")
        case .falseValue: append("false")
        case .trueValue: append("true")
        case .int: emitInteger(Int64(bitPattern: entry.payload))
        case .double:
            // Finite: the reader rejects numbers too large for a double.
            var text = Double(bitPattern: entry.payload).description
            text.withUTF8 { output.put($0) }
        case .string:
            if entry.flags.contains(.escaped) {
                emitString(reader.string(at: index))
            } else {
                output.put(UInt8(ascii: "\""))
                output.put(reader.rawBytes(at: index))
                output.put(UInt8(ascii: "\""))
            }
        case .array:
            output.put(UInt8(ascii: "["))
            var element = index + 1
            for position in 0..<Int(entry.count) {
                if position > 0 { output.put(UInt8(ascii: ",")) }
                emit(reader, at: element)
                element = reader.next(after: element)
            }
            output.put(UInt8(ascii: "]"))
        case .object:
            output.put(UInt8(ascii: "{"))
            if !entry.flags.contains(.plainKeys) {
                // Escaped or non-ASCII keys: decoded, ordered and told apart by their bytes.
                for (position, member) in reader.canonicalMembers(ofObjectAt: index).enumerated() {
                    if position > 0 { output.put(UInt8(ascii: ",")) }
                    emitString(member.key)
                    output.put(UInt8(ascii: ":"))
                    emit(reader, at: member.value)
                }
            } else if sortedKeys && !entry.flags.contains(.sortedKeys) {
                for (position, key) in reader.sortedKeys(ofObjectAt: index).enumerated() {
                    emitRawMember(reader, key: key, first: position == 0)
                }
            } else {
                var key = index + 1
                for position in 0..<Int(entry.count) {
                    emitRawMember(reader, key: key, first: position == 0)
                    key = reader.next(after: key + 1)
                }
            }
            output.put(UInt8(ascii: "}"))
        }
    }

    private mutating func emitRawMember(_ reader: JSONTapeReader, key: Int, first: Bool) {
        if !first { output.put(UInt8(ascii: ",")) }
        output.put(UInt8(ascii: "\""))
        output.put(reader.rawBytes(at: key))
        output.put(UInt8(ascii: "\""))
        output.put(UInt8(ascii: ":"))
        emit(reader, at: key + 1)
    }

    private mutating func emitMember(_ key: String, _ value: JSONValue, first: Bool, depth: Int) throws(Failure) {
        if !first { output.put(UInt8(ascii: ",")) }
        emitString(key)
        output.put(UInt8(ascii: ":"))
        do {
            try emit(value, depth: depth + 1)
        } catch var failure {
            failure.inside(Self.pathComponent(forKey: key))
            throw failure
        }
    }

    private static func tooDeep(_ limit: Int) -> Failure {
        Failure("nesting deeper than \(limit) levels")
    }

    private static func pathComponent(forKey key: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                    return true
                default: return false
                }
            }
        if plain { return "." + key }
        var quoted = JSONEmitter(sortedKeys: true, capacity: key.utf8.count + 8)
        defer { quoted.output.free() }
        quoted.emitString(key)
        return "[" + String(decoding: quoted.output.bytes, as: UTF8.self) + "]"
    }

    @inline(__always)
    private mutating func append(_ text: StaticString) {
        output.put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func emitInteger(_ number: Int64) {
        if number < 0 { output.put(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        // 20 digits hold UInt64.max; written from the right, then copied once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.put(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    mutating func emitString(_ text: String) {
        output.put(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Runs that need no escaping are found eight bytes at a time and copied in one go.
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            var run = 0
            var index = 0
            while index < bytes.count {
                if bytes.count - index >= 8, let base = bytes.baseAddress {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    let quotes = word ^ (ones &* 0x22)
                    let backslashes = word ^ (ones &* 0x5C)
                    // High bit per byte below 0x20 (not above 0x7F), quote or backslash; the
                    // lowest one is exact (borrows only add flags above a real one).
                    let control = (word &- (ones &* 0x20)) & ~word
                    let quote = (quotes &- ones) & ~quotes
                    let backslash = (backslashes &- ones) & ~backslashes
                    let flags = (control | quote | backslash) & highs
                    if flags == 0 {
                        index += 8
                        continue
                    }
                    index += flags.trailingZeroBitCount / 8
                }
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                output.put(UnsafeBufferPointer(rebasing: bytes[run..<index]))
                run = index + 1
                output.put(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.put(byte)
                case 0x08: output.put(UInt8(ascii: "b"))
                case 0x09: output.put(UInt8(ascii: "t"))
                case 0x0A: output.put(UInt8(ascii: "n"))
                case 0x0C: output.put(UInt8(ascii: "f"))
                case 0x0D: output.put(UInt8(ascii: "r"))
                default:
                    let hex = Self.hexDigits.utf8Start
                    output.put(UInt8(ascii: "u"))
                    output.put(UInt8(ascii: "0"))
                    output.put(UInt8(ascii: "0"))
                    output.put(hex[Int(byte >> 4)])
                    output.put(hex[Int(byte & 0x0F)])
                }
                index += 1
            }
            output.put(UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        output.put(UInt8(ascii: "\""))
    }
}
