import Foundation

/// A ``Blob`` is a property of a `Codable` model saved with ``Collection/save(from:)`` or read
/// with ``Collection/document(id:as:)`` and ``QueryResult/data(as:dataKey:)``; those coders
/// store it as a blob. Other coders (JSONEncoder, JSONDecoder) cannot carry its content.
extension Blob: Codable {
    /// Refuses: only a document or query result can give a blob.
    ///
    /// - Throws: ``QuireError/Code/decodingError``.
    public convenience init(from decoder: any Decoder) throws {
        throw QuireError(
            .decodingError, "a Blob decodes only from a Quire document or query result, not with \(type(of: decoder))")
    }

    /// Refuses: only a document can hold a blob.
    ///
    /// - Throws: ``QuireError/Code/encodingError``.
    public func encode(to encoder: any Encoder) throws {
        throw QuireError(.encodingError, "a Blob encodes only into a Quire document, not with \(type(of: encoder))")
    }
}
