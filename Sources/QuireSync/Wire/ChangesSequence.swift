import Quire

/// A position in a changes feed, as the wire carries it.
///
/// Quire writes its integer sequences as strings (`"42"`), the way CouchDB 2 and later treat
/// sequences as opaque strings. What a peer sends is kept as is, number or string, so it can
/// be handed back unchanged in `since`.
package struct ChangesSequence: Hashable, Sendable, CustomStringConvertible {
    /// The sequence as it appears in JSON: a string or an integer.
    package let value: JSONValue

    /// The sequence `0`, the start of every feed.
    package static let zero = ChangesSequence(0)

    /// The wire form of a local sequence.
    package init(_ sequence: UInt64) {
        value = .string(String(sequence))
    }

    /// A sequence read from a peer's JSON (`seq`, `last_seq`, `source_last_seq`).
    package init(json: JSONValue) throws {
        switch json {
        case .string, .int:
            value = json
        case .double(let number) where number >= 0 && Int64(exactly: number) != nil:
            value = .int(Int64(exactly: number) ?? 0)
        default:
            throw WireError.invalid("sequence", "expected a string or a non-negative integer")
        }
    }

    /// A sequence from a `since` query parameter: `42`, `"42"`, or CouchDB's `42-g1AAA…`
    /// (kept opaque). Empty text is nil.
    package init?(parameter text: String) {
        var text = Substring(text)
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        guard !text.isEmpty else { return nil }
        value = .string(String(text))
    }

    /// The local integer sequence this stands for: the whole text for `"42"`, the part before
    /// the first `-` for CouchDB's `42-…`; nil for anything else, and for numbers above
    /// `Int64.max`, which no local sequence reaches (SQLite integers are 64-bit signed).
    package var localSequence: UInt64? {
        switch value {
        case .int(let number): return number >= 0 ? UInt64(number) : nil
        case .string(let text):
            let prefix = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard let number = UInt64(prefix), number <= UInt64(Int64.max) else { return nil }
            return number
        default: return nil
        }
    }

    /// The text to send back as `since`.
    package var parameter: String {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        default: return "0"
        }
    }

    /// The text form.
    package var description: String { parameter }
}
