/// An index of a collection, as ``Collection/index(withName:)`` returns it.
public struct QueryIndex: Sendable, CustomStringConvertible {
    /// The index's name.
    public let name: String
    /// The collection it indexes.
    public let collection: Collection
    /// The indexed expressions, in SQL++.
    package let expressions: [String]
    /// The partial-index condition, in SQL++, if any.
    package let whereClause: String?
    /// Whether it is a full-text index.
    package let isFullText: Bool
    /// An array index's path to the array (``ArrayIndexConfiguration/path``); nil for other
    /// kinds. Its ``expressions`` are over each element, empty for the elements themselves.
    package let arrayPath: String?

    /// `name (kind on collection)`.
    public var description: String {
        "\(name) (\(kind) index on \(collection.fullName): \(expressions.joined(separator: ", ")))"
    }

    private var kind: String {
        if let arrayPath { return "array (\(arrayPath))" }
        return isFullText ? "full-text" : "value"
    }
}
