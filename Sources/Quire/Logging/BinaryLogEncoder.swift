import Foundation

/// Encodes log entries in LiteCore's binary log format, so Couchbase Lite's `cbl-log` tool
/// reads Quire's files (LiteCore `LogEncoder.cc` describes the format; this is Quire's own
/// writer of it).
///
/// A file starts with the magic number `CF B2 AB 1B`, the format version (1), the size of a
/// pointer (8) and the start time in whole seconds since 1970 as a varint. Each entry is the
/// microseconds since the previous one (a varint), the level (a byte), the domain (a token),
/// an object ID (0: none), the format string (a token), then the arguments: here always
/// strings, each a varint length and the bytes. A token is a varint number, and the first time
/// a number appears it is followed by its text, NUL-terminated; domains and formats share the
/// numbering, from 0.
struct BinaryLogEncoder {
    /// The format of a message logged whole: its text is the one argument, never parsed for
    /// `%`, so a percent sign in a message stays one.
    static let messageFormat = "%.*s"

    private var tokens: [String: UInt64] = [:]
    private let startSeconds: Int64
    private var lastMicroseconds: Int64

    /// An encoder for a file started at `start`; ``header`` is the file's first bytes.
    init(start: Date) {
        let seconds = start.timeIntervalSince1970
        startSeconds = Int64(seconds.rounded(.down))
        lastMicroseconds = 0
    }

    /// The bytes a file starts with.
    var header: [UInt8] {
        var bytes: [UInt8] = [0xCF, 0xB2, 0xAB, 0x1B, 1, 8]
        Self.appendVarint(UInt64(max(0, startSeconds)), to: &bytes)
        return bytes
    }

    /// One entry: `format` with `arguments` substituted for its `%s` / `%.*s` in order.
    mutating func entry(
        level: LogLevel, domain: String, format: String, arguments: [String], at time: Date
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        let microseconds = Int64(((time.timeIntervalSince1970 - Double(startSeconds)) * 1_000_000).rounded(.down))
        // A clock set back writes a zero step rather than a huge unsigned one.
        Self.appendVarint(UInt64(max(0, microseconds - lastMicroseconds)), to: &bytes)
        lastMicroseconds = max(lastMicroseconds, microseconds)
        bytes.append(min(level.rawValue, LogLevel.error.rawValue))
        appendToken(domain, to: &bytes)
        bytes.append(0)  // no object
        appendToken(format, to: &bytes)
        for argument in arguments {
            let utf8 = Array(argument.utf8)
            Self.appendVarint(UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
        return bytes
    }

    private mutating func appendToken(_ text: String, to bytes: inout [UInt8]) {
        if let number = tokens[text] {
            Self.appendVarint(number, to: &bytes)
            return
        }
        let number = UInt64(tokens.count)
        tokens[text] = number
        Self.appendVarint(number, to: &bytes)
        // A NUL inside would end the text early for a reader.
        bytes.append(contentsOf: text.utf8.map { $0 == 0 ? UInt8(ascii: "?") : $0 })
        bytes.append(0)
    }

    /// `value` in seven-bit groups, least significant first, the high bit set on all but the
    /// last.
    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
