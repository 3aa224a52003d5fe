import Foundation

/// Quire's JSON reader and writer for the packages that import Quire from outside and measure
/// or fuzz the codec itself (Benchmarks, Tests/Fuzz), through `@_spi(Codec) import Quire`.
/// The modules of this package use `JSONReader`, `JSONWriter` and `JSONValue` directly; apps
/// read and write JSON through ``MutableDocument/init(json:)`` and ``Document/toJSON()``.
@_spi(Codec) public enum JSONCodec {
    /// A JSON value as the codec reads and writes it: integers and doubles stay apart, object
    /// keys compare by their UTF-8 bytes (two spellings of one text are two keys; ``members``
    /// gives them as a Swift dictionary, where they are one). It wraps the package's own value
    /// type, which is not part of the public API.
    public struct Value: Sendable, Hashable {
        let json: JSONValue

        /// `null`.
        public static let null = Value(json: .null)
        /// `true` or `false`.
        public static func bool(_ value: Bool) -> Value { Value(json: .bool(value)) }
        /// An integer that fits in 64 bits.
        public static func int(_ value: Int64) -> Value { Value(json: .int(value)) }
        /// A floating-point number (not necessarily finite: writing a non-finite one throws).
        public static func double(_ value: Double) -> Value { Value(json: .double(value)) }
        /// A string.
        public static func string(_ value: String) -> Value { Value(json: .string(value)) }
        /// An array of `elements`.
        public static func array(_ elements: [Value]) -> Value { Value(json: .array(elements.map(\.json))) }
        /// An object of `members`.
        public static func object(_ members: [String: Value]) -> Value {
            Value(json: .object(members.mapValues(\.json)))
        }

        /// The members when this is an object, otherwise nil.
        public var members: [String: Value]? { json.objectValue?.mapValues(Value.init(json:)) }
        /// The member named `key` when this is an object that has one, otherwise nil.
        public subscript(key: String) -> Value? { json[key].map(Value.init(json:)) }
        /// The text when this is a string, otherwise nil.
        public var stringValue: String? { json.stringValue }
        /// The number of members of an object or elements of an array; 0 for anything else.
        public var count: Int { json.objectMembers?.count ?? json.arrayValue?.count ?? 0 }
    }

    /// Parses UTF-8 JSON text.
    ///
    /// - Throws: ``QuireError/Code/corruptData`` naming the byte offset of the first error.
    public static func parse(_ bytes: some ContiguousBytes) throws -> Value { Value(json: try JSONReader.parse(bytes)) }

    /// Parses JSON text.
    ///
    /// - Throws: ``QuireError/Code/corruptData`` naming the byte offset of the first error.
    public static func parse(_ text: String) throws -> Value { Value(json: try JSONReader.parse(text)) }

    /// The JSON text of `value` as UTF-8 bytes: canonical (keys sorted) unless `sortedKeys` is false.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a non-finite double or nesting too deep.
    public static func bytes(_ value: Value, sortedKeys: Bool = true) throws -> [UInt8] {
        try JSONWriter.bytes(value.json, sortedKeys: sortedKeys)
    }

    /// The JSON text of `value`: canonical (keys sorted) unless `sortedKeys` is false.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a non-finite double or nesting too deep.
    public static func string(_ value: Value, sortedKeys: Bool = true) throws -> String {
        try JSONWriter.string(value.json, sortedKeys: sortedKeys)
    }
}
