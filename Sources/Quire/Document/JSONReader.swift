import Foundation

/// A strict RFC 8259 JSON parser working directly on UTF-8 bytes.
///
/// What it accepts, and what it makes of it:
/// - Any JSON value at the top level, surrounded by optional whitespace, and nothing else:
///   trailing bytes, a byte-order mark, comments and trailing commas are errors.
/// - Strings must be well-formed UTF-8 (no overlong forms, no encoded surrogates, nothing
///   above U+10FFFF, no truncated sequences) with control characters escaped; `\u` escapes
///   must pair surrogates correctly.
/// - Numbers follow the JSON grammar (no leading zeros, no `+`, no bare `.`). An integer
///   that fits `Int64` becomes ``JSONValue/int(_:)``; a larger integer, or any number with a
///   fraction or exponent, becomes ``JSONValue/double(_:)``, correctly rounded. `-0` becomes
///   `.double(-0.0)` so the sign survives a round trip. A number whose magnitude is too large
///   for a `Double` is an error rather than infinity, since infinity cannot be written back.
/// - When an object repeats a key, the last occurrence wins.
/// - Arrays and objects nest at most ``maximumDepth`` deep.
///
/// Errors are ``QuireError`` with code ``QuireError/Code/corruptData`` and a message of the
/// form `invalid JSON at byte 17: expected ',' or '}' after object member`, where the offset
/// is zero-based and points at the offending byte (for a bad UTF-8 sequence or escape, at
/// its first byte; for truncated input, at the end).
package enum JSONReader {
    /// The deepest nesting of arrays and objects accepted; one level more is an error.
    /// The parser itself uses no recursion, so this bounds memory, not stack.
    package static let maximumDepth = 512

    /// Parses one JSON value from UTF-8 bytes.
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JSONValue {
        try parse(bytes, maximumDepth: maximumDepth)
    }

    /// Parses one JSON value from UTF-8 bytes, with a nesting limit other than
    /// ``maximumDepth``: for messages that wrap documents (a replication protocol response
    /// holds documents a few levels down), whose documents are then checked on their own.
    /// With `exactIntegers`, an integer outside `Int64` (which would become an inexact
    /// double) is an error instead.
    package static func parse(
        _ bytes: UnsafeRawBufferPointer, maximumDepth: Int, exactIntegers: Bool = false
    ) throws -> JSONValue {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw JSONParser.error(at: 0, "unexpected end of input, expected a value")
        }
        let text = base.assumingMemoryBound(to: UInt8.self)
        var parser = JSONParser(base: text, count: bytes.count)
        parser.maximumDepth = maximumDepth
        parser.exactIntegers = exactIntegers
        var tape: [JSONTapeEntry] = []
        tape.reserveCapacity(bytes.count / 8 + 4)
        _ = try parser.scan(into: &tape, classifyKeys: false)
        return tape.withUnsafeBufferPointer { JSONTapeReader(base: text, tape: $0).value(at: 0) }
    }

    /// Parses one JSON value from UTF-8 bytes held in contiguous storage
    /// (`[UInt8]`, `Data`, `ArraySlice<UInt8>` ...).
    package static func parse(_ bytes: some ContiguousBytes) throws -> JSONValue {
        try bytes.withUnsafeBytes { try parse($0) }
    }

    /// Parses one JSON value from UTF-8 bytes held in contiguous storage, with a nesting
    /// limit other than ``maximumDepth`` (see `parse(_:maximumDepth:)`).
    package static func parse(
        _ bytes: some ContiguousBytes, maximumDepth: Int, exactIntegers: Bool = false
    ) throws -> JSONValue {
        try bytes.withUnsafeBytes { try parse($0, maximumDepth: maximumDepth, exactIntegers: exactIntegers) }
    }

    /// Parses one JSON value from text.
    package static func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse(UnsafeRawBufferPointer($0)) }
    }

    /// Runs a parse of JSON text an application handed over (`MutableDocument(json:)`,
    /// `setJSON`): a syntax error there is the caller's ``QuireError/Code/invalidJSON``, as
    /// in Couchbase Lite, where the same error in stored data stays ``QuireError/Code/corruptData``.
    static func applicationJSON<T>(_ parse: () throws -> T) throws -> T {
        do {
            return try parse()
        } catch var error as QuireError where error.code == .corruptData && error.domain == .quire {
            error.code = .invalidJSON
            throw error
        }
    }
}

/// The scanner's state over one input buffer: it validates JSON text byte by byte and
/// records what it finds on a ``JSONTape`` (see `JSONTape.swift`), which values are then
/// built from, or read lazily.
///
/// It is iterative: open containers live on a stack of tape positions, so deep input cannot
/// exhaust the thread's stack (threads other than the main one may have as little as
/// 512 KiB).
struct JSONParser {
    let base: UnsafePointer<UInt8>
    let end: Int
    var position = 0
    /// Reused for strings that contain escapes, so they cost one buffer, not one per string.
    private var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.end = count
    }

    static func error(at offset: Int, _ detail: String) -> QuireError {
        QuireError(.corruptData, "invalid JSON at byte \(offset): \(detail)")
    }

    // MARK: Structure

    /// The deepest nesting accepted.
    var maximumDepth = JSONReader.maximumDepth
    /// Whether an integer outside `Int64` is an error rather than a double.
    var exactIntegers = false

    func checkDepth(_ depth: Int) throws {
        if depth >= maximumDepth {
            throw Self.error(at: position, "nesting deeper than \(maximumDepth) levels")
        }
    }

    /// Checks `"` at the position, to start an object key after `what` (`'{'` or `','`).
    func checkKeyStart(after what: String) throws {
        guard position < end else { throw endOfInput("expected an object key after \(what)") }
        guard base[position] == UInt8(ascii: "\"") else {
            throw Self.error(
                at: position,
                "expected '\"' to start an object key after \(what), found \(Self.describe(base[position]))")
        }
    }

    /// Reads the `:` after a key and leaves the position at the member's value.
    mutating func expectColon() throws {
        skipWhitespace()
        guard position < end else { throw endOfInput("expected ':' after object key") }
        guard base[position] == UInt8(ascii: ":") else {
            throw Self.error(at: position, "expected ':' after object key, found \(Self.describe(base[position]))")
        }
        position += 1
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < end {
            switch base[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws {
        let length = literal.utf8CodeUnitCount
        let start = position
        let matches =
            end - start >= length
            && memcmp(base + start, literal.utf8Start, length) == 0
        guard matches else {
            throw Self.error(at: start, "invalid literal, expected '\(literal)'")
        }
        position += length
    }

    // MARK: Strings

    /// What ``skipString()`` saw in a string.
    struct StringTraits: OptionSet {
        let rawValue: UInt8
        /// The string has at least one escape, so its text differs from its bytes.
        static let escaped = StringTraits(rawValue: 1)
        /// The string has bytes above 0x7F.
        static let nonASCII = StringTraits(rawValue: 2)
    }

    /// Validates a string starting at its opening quote, without making a Swift string, and
    /// moves past its closing quote.
    mutating func skipString() throws -> StringTraits {
        let quote = position
        position += 1
        var traits: StringTraits = []
        while true {
            skipPlainASCII()
            guard position < end else { throw unterminatedString(quote) }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return traits
            } else if byte == UInt8(ascii: "\\") {
                traits.insert(.escaped)
                scratch.removeAll(keepingCapacity: true)
                try parseEscape()
            } else if byte < 0x20 {
                throw controlCharacter(byte)
            } else {
                traits.insert(.nonASCII)
                try skipUTF8Sequence()
            }
        }
    }

    /// Parses a string starting at its opening quote.
    mutating func parseString() throws -> String {
        let quote = position
        position += 1
        let start = position
        while true {
            skipPlainASCII()
            guard position < end else { throw unterminatedString(quote) }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(
                    decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
                position += 1
                return text
            } else if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(quote: quote, start: start)
            } else if byte < 0x20 {
                throw controlCharacter(byte)
            } else {
                try skipUTF8Sequence()
            }
        }
    }

    /// Continues a string from its first backslash, collecting its bytes in `scratch`.
    private mutating func parseEscapedString(quote: Int, start: Int) throws -> String {
        scratch.removeAll(keepingCapacity: true)
        var run = start
        while true {
            skipPlainASCII()
            guard position < end else { throw unterminatedString(quote) }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + run, count: position - run))
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + run, count: position - run))
                try parseEscape()
                run = position
            } else if byte < 0x20 {
                throw controlCharacter(byte)
            } else {
                try skipUTF8Sequence()
            }
        }
    }

    /// Decodes one escape at `position` (a backslash) into `scratch`.
    private mutating func parseEscape() throws {
        let backslash = position
        guard position + 1 < end else { throw endOfInput("expected an escape character after '\\'") }
        let escaped = base[position + 1]
        position += 2
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHexQuad(escapeStart: backslash)
            var scalar = UInt32(unit)
            if (0xDC00...0xDFFF).contains(unit) {
                throw Self.error(
                    at: backslash, "lone low surrogate \(Self.escapeText(unit)) without a preceding high surrogate")
            }
            if (0xD800...0xDBFF).contains(unit) {
                let low = position
                guard end - low >= 2, base[low] == UInt8(ascii: "\\"), base[low + 1] == UInt8(ascii: "u") else {
                    throw Self.error(
                        at: backslash,
                        "lone high surrogate \(Self.escapeText(unit)) not followed by a \\u low surrogate")
                }
                position += 2
                let second = try parseHexQuad(escapeStart: low)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw Self.error(
                        at: backslash,
                        "high surrogate \(Self.escapeText(unit)) followed by \(Self.escapeText(second)), which is not a low surrogate"
                    )
                }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            }
            appendUTF8(scalar)
        default:
            throw Self.error(at: backslash, "invalid escape '\\\(Self.printable(escaped))' in string")
        }
    }

    /// Reads the four hex digits of a `\u` escape whose backslash is at `escapeStart`.
    private mutating func parseHexQuad(escapeStart: Int) throws -> UInt16 {
        var unit: UInt16 = 0
        for offset in 0..<4 {
            guard position + offset < end else {
                throw Self.error(at: escapeStart, "\\u escape needs 4 hex digits, the input ends first")
            }
            let byte = base[position + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw Self.error(at: escapeStart, "\\u escape needs 4 hex digits, found \(Self.describe(byte))")
            }
            unit = unit << 4 | UInt16(digit)
        }
        position += 4
        return unit
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Advances over printable ASCII other than `"` and `\`, eight bytes at a time while it
    /// can: most strings in documents are short ASCII runs, and this is where parsing spends
    /// its time.
    @inline(__always)
    private mutating func skipPlainASCII() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while end - position >= 8 {
            // The first byte of the run in the lowest bits, whatever the platform's byte order.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            // Per byte, the high bit of each term is set when the byte is below 0x20, a quote,
            // a backslash, or non-ASCII; borrows can only add false alarms after a real one,
            // so the lowest flag is exact and says how far the plain run goes.
            let control = word &- (ones &* 0x20)
            let quote = (quotes &- ones) & ~quotes
            let backslash = (backslashes &- ones) & ~backslashes
            let flags = (control | quote | backslash | word) & highs
            if flags != 0 {
                position += flags.trailingZeroBitCount / 8
                return
            }
            position += 8
        }
        while position < end {
            let byte = base[position]
            guard byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte < 0x80 else { return }
            position += 1
        }
    }

    /// Checks one multi-byte UTF-8 sequence at `position` against the well-formed byte
    /// sequences of Unicode's table 3-7 and moves past it.
    private mutating func skipUTF8Sequence() throws {
        let lead = base[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x80...0xBF:
            throw Self.error(at: position, "malformed UTF-8: unexpected continuation byte \(Self.hex(lead))")
        case 0xC0, 0xC1:
            throw Self.error(at: position, "malformed UTF-8: overlong encoding starting with \(Self.hex(lead))")
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default:
            throw Self.error(at: position, "malformed UTF-8: byte \(Self.hex(lead)) never occurs in UTF-8")
        }
        for index in 1..<length {
            guard position + index < end else {
                throw Self.error(
                    at: position,
                    "malformed UTF-8: sequence starting with \(Self.hex(lead)) is truncated by the end of input")
            }
            let byte = base[position + index]
            guard byte & 0xC0 == 0x80 else {
                throw Self.error(
                    at: position,
                    "malformed UTF-8: sequence starting with \(Self.hex(lead)) is truncated by \(Self.hex(byte))")
            }
            if index == 1, !secondRange.contains(byte) {
                let pair = "\(Self.hex(lead)) \(Self.hex(byte))"
                switch lead {
                case 0xE0, 0xF0: throw Self.error(at: position, "malformed UTF-8: overlong encoding \(pair)")
                case 0xED: throw Self.error(at: position, "malformed UTF-8: encoded surrogate \(pair)")
                default: throw Self.error(at: position, "malformed UTF-8: code point above U+10FFFF \(pair)")
                }
            }
        }
        position += length
    }

    // MARK: Numbers

    /// Powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    mutating func parseNumber() throws -> JSONValue {
        let start = position
        let negative = base[position] == UInt8(ascii: "-")
        if negative { position += 1 }

        // Digits go into `mantissa` while it can hold them exactly; `overflow` sends the
        // number to the slow, correctly rounded path.
        var mantissa: UInt64 = 0
        var overflow = false
        guard position < end, Self.isDigit(base[position]) else {
            if position < end {
                throw Self.error(at: position, "expected a digit after '-', found \(Self.describe(base[position]))")
            }
            throw endOfInput("expected a digit after '-'")
        }
        if base[position] == UInt8(ascii: "0") {
            position += 1
            if position < end, Self.isDigit(base[position]) {
                throw Self.error(at: position, "leading zero in number")
            }
        } else {
            while position < end, Self.isDigit(base[position]) {
                accumulate(base[position], into: &mantissa, overflow: &overflow)
                position += 1
            }
        }

        var isInteger = true
        var fractionDigits = 0
        if position < end, base[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < end, Self.isDigit(base[position]) else {
                throw digitExpected("after the decimal point")
            }
            while position < end, Self.isDigit(base[position]) {
                accumulate(base[position], into: &mantissa, overflow: &overflow)
                if !overflow { fractionDigits += 1 }
                position += 1
            }
        }

        var exponent = 0
        if position < end, base[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            var exponentNegative = false
            if position < end, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-") {
                exponentNegative = base[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < end, Self.isDigit(base[position]) else {
                throw digitExpected("in the exponent")
            }
            while position < end, Self.isDigit(base[position]) {
                // Saturates: anything this large is outside the fast path anyway.
                if exponent < 100_000 { exponent = exponent * 10 + Int(base[position] - UInt8(ascii: "0")) }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        if isInteger, !overflow {
            if !negative, mantissa <= UInt64(Int64.max) {
                return .int(Int64(mantissa))
            }
            if negative, mantissa != 0, mantissa <= UInt64(Int64.max) + 1 {
                return .int(Int64(bitPattern: 0 &- mantissa))
            }
        }
        if isInteger, exactIntegers, overflow || mantissa != 0 {
            let text = String(
                decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
            throw Self.error(
                at: start, "the integer \(text.prefix(40)) is outside the 64-bit range, and would not be kept exactly")
        }

        // Clinger's fast path: both operands are exact doubles, so one IEEE operation rounds
        // the true value correctly.
        let scale = exponent - fractionDigits
        if !overflow, mantissa <= 1 << 53, (-22...22).contains(scale) {
            var result = Double(mantissa)
            if scale < 0 {
                result /= Self.exactPowersOfTen[-scale]
            } else {
                result *= Self.exactPowersOfTen[scale]
            }
            return .double(negative ? -result : result)
        }
        if !overflow, mantissa == 0 {
            return .double(negative ? -0.0 : 0.0)
        }

        // Swift's Double(String) parses in the C locale and rounds correctly; the text is
        // known to be valid JSON, a subset of what it accepts.
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
        guard let result = Double(text), result.isFinite else {
            throw Self.error(at: start, "number \(text) is too large for a double")
        }
        return .double(result)
    }

    @inline(__always)
    private func accumulate(_ digit: UInt8, into mantissa: inout UInt64, overflow: inout Bool) {
        guard !overflow else { return }
        let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
        if overflow1 || overflow2 {
            overflow = true
        } else {
            mantissa = sum
        }
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    // MARK: Errors

    func endOfInput(_ detail: String) -> QuireError {
        Self.error(at: end, "unexpected end of input, \(detail)")
    }

    private func unterminatedString(_ quote: Int) -> QuireError {
        Self.error(at: end, "unexpected end of input in the string starting at byte \(quote)")
    }

    private func controlCharacter(_ byte: UInt8) -> QuireError {
        Self.error(at: position, "unescaped control character \(Self.hex(byte)) in string")
    }

    private func digitExpected(_ place: String) -> QuireError {
        if position < end {
            return Self.error(at: position, "expected a digit \(place), found \(Self.describe(base[position]))")
        }
        return endOfInput("expected a digit \(place)")
    }

    /// `'x'` for printable ASCII, `byte 0xNN` otherwise.
    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(printable(byte))'" : "byte \(hex(byte))"
    }

    private static func printable(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : hex(byte)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0\(digits)" : "0x\(digits)"
    }

    private static func escapeText(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
