import Foundation

/// Quire's JSON reader and writer for the packages that import Quire from outside and measure
/// or fuzz the codec itself (Benchmarks, Tests/Fuzz), through `@_spi(Codec) import Quire`.
/// The modules of this package use `JSONReader` and `JSONWriter` directly; apps read and write
/// JSON through ``MutableDocument/init(json:)``, ``Document/toJSON()`` and
/// ``JSONValue/jsonString(sortedKeys:)``.
@_spi(Codec) public enum JSONCodec {
    /// Parses UTF-8 JSON text.
    ///
    /// - Throws: ``QuireError/Code/corruptData`` naming the byte offset of the first error.
    public static func parse(_ bytes: some ContiguousBytes) throws -> JSONValue { try JSONReader.parse(bytes) }

    /// Parses JSON text.
    ///
    /// - Throws: ``QuireError/Code/corruptData`` naming the byte offset of the first error.
    public static func parse(_ text: String) throws -> JSONValue { try JSONReader.parse(text) }

    /// The JSON text of `value` as UTF-8 bytes: canonical (keys sorted) unless `sortedKeys` is false.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a non-finite double or nesting too deep.
    public static func bytes(_ value: JSONValue, sortedKeys: Bool = true) throws -> [UInt8] {
        try JSONWriter.bytes(value, sortedKeys: sortedKeys)
    }

    /// The JSON text of `value`: canonical (keys sorted) unless `sortedKeys` is false.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a non-finite double or nesting too deep.
    public static func string(_ value: JSONValue, sortedKeys: Bool = true) throws -> String {
        try JSONWriter.string(value, sortedKeys: sortedKeys)
    }
}
