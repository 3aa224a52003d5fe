import Quire

/// The revision IDs accepted from a peer: `<generation>-<suffix>`, the generation a positive
/// decimal below 2^31 without leading zeros, the suffix 1 to 128 printable ASCII characters
/// other than `,` (Quire stores ancestry comma-separated) and space.
enum RevisionFormat {
    static let maximumGeneration = Int(Int32.max)

    /// Splits a valid revision ID, or nil.
    static func split(_ revisionID: String) -> (generation: Int, suffix: Substring)? {
        guard let dash = revisionID.firstIndex(of: "-") else { return nil }
        let digits = revisionID[..<dash]
        let suffix = revisionID[revisionID.index(after: dash)...]
        guard !digits.isEmpty, digits.count <= 10, digits.first != "0", digits.allSatisfy(\.isASCII),
            let generation = Int(digits), generation <= maximumGeneration,
            isValidSuffix(suffix)
        else { return nil }
        return (generation, suffix)
    }

    static func isValidSuffix(_ suffix: Substring) -> Bool {
        !suffix.isEmpty && suffix.utf8.count <= 128
            && suffix.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") }
    }

    /// The revision ID in `value`, checked.
    static func revisionID(_ value: WireValue) throws -> String {
        let text = try value.string()
        guard split(text) != nil else {
            throw value.failure("is '\(text.prefix(80))', not a revision ID (<generation>-<digest>)")
        }
        return text
    }

    /// A document ID from a peer: a non-empty string of at most 1024 UTF-8 bytes; `_local/`
    /// and `_design/` IDs are never replicated.
    static func documentID(_ value: WireValue) throws -> String {
        let text = try value.string()
        guard !text.isEmpty, text.utf8.count <= 1024 else {
            throw value.failure("is a document ID of \(text.utf8.count) bytes, expected 1 to 1024")
        }
        return text
    }
}
