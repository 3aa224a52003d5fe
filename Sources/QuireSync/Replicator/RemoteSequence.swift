import Quire

/// Remote sequences are opaque: an integer (CouchDB 1.x, Sync Gateway), a string (CouchDB
/// 2+, Sync Gateway's `n:m`), or for old clusters an array. They are stored as received and
/// sent back as received.
enum RemoteSequence {
    /// Accepts an integer, a string or an array as a sequence; anything else is an error.
    static func validate(_ value: WireValue) throws -> JSONValue {
        switch value.value {
        case .int(let number) where number >= 0: return value.value
        case .string(let text) where !text.isEmpty && text.utf8.count <= 4096: return value.value
        case .array: return value.value
        default: throw value.failure("is \(WireValue.describe(value.value)), expected a sequence (an integer or a string)")
        }
    }

    /// The form of `since=` in a query string.
    static func queryText(_ sequence: JSONValue) -> String {
        switch sequence {
        case .int(let number): return String(number)
        case .string(let text): return text
        default: return (try? JSONWriter.string(sequence)) ?? "0"
        }
    }

    /// The smaller of two sequences recorded for one session on the two sides, when they
    /// can be compared: equal ones, or integers (also written as decimal strings). nil when
    /// they differ and are opaque, so the caller starts that direction over.
    static func earlier(_ lhs: JSONValue?, _ rhs: JSONValue?) -> JSONValue? {
        guard let lhs, let rhs else { return nil }
        if lhs == rhs { return lhs }
        if let left = integer(lhs), let right = integer(rhs) { return left <= right ? lhs : rhs }
        return nil
    }

    private static func integer(_ value: JSONValue) -> UInt64? {
        switch value {
        case .int(let number): return number >= 0 ? UInt64(number) : nil
        case .string(let text): return UInt64(text)
        default: return nil
        }
    }
}
