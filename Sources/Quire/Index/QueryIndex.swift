/// An index of a collection, as ``Collection/index(withName:)`` returns it.
public struct QueryIndex: Sendable, CustomStringConvertible {
    /// The index's name.
    public let name: String
    /// The collection it indexes.
    public let collection: Collection
    /// The indexed expressions, in SQL++.
    public let expressions: [String]
    /// The partial-index condition, in SQL++, if any.
    public let whereClause: String?
    /// Whether it is a full-text index (otherwise a value index).
    public let isFullText: Bool

    /// `name (kind on collection)`.
    public var description: String {
        "\(name) (\(isFullText ? "full-text" : "value") index on \(collection.fullName): \(expressions.joined(separator: ", ")))"
    }
}
