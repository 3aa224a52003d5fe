import Foundation
import Quire

/// The JSON of replication protocol messages: requests and responses that carry documents a
/// few levels down (`_bulk_get` results, `_changes` and `_all_docs` rows with `doc`,
/// `open_revs` entries, `_bulk_docs` requests).
///
/// A document may nest as deep as the store accepts (``JSONReader/maximumDepth`` levels);
/// wrapped in a message it is up to ``envelopeDepth`` levels deeper, so messages are read
/// and written with that much more room. Each document in them is then held to the store's
/// own limit when it is saved.
package enum WireJSON {
    /// The most levels a message puts around a document: `_bulk_get`'s
    /// `{"results": [{"docs": [{"ok": doc}]}]}` has 5; 8 leaves room.
    package static let envelopeDepth = 8

    /// The nesting limit of a message.
    package static let maximumDepth = JSONReader.maximumDepth + envelopeDepth

    /// Parses a message; with `exactIntegers`, an integer outside `Int64` is an error
    /// instead of an inexact double.
    package static func parse(_ bytes: some ContiguousBytes, exactIntegers: Bool = false) throws -> JSONValue {
        try JSONReader.parse(bytes, maximumDepth: maximumDepth, exactIntegers: exactIntegers)
    }

    /// Parses a message given as text.
    package static func parse(_ text: String) throws -> JSONValue {
        try JSONReader.parse(Array(text.utf8), maximumDepth: maximumDepth)
    }

    /// A message's bytes, keys in the order of the dictionaries unless `sortedKeys`.
    package static func bytes(_ value: JSONValue, sortedKeys: Bool = false) throws -> [UInt8] {
        try JSONWriter.bytes(value, sortedKeys: sortedKeys, maximumDepth: maximumDepth)
    }
}
