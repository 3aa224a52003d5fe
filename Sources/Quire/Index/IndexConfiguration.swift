/// What ``Collection/createIndex(withName:config:)`` accepts: a
/// ``ValueIndexConfiguration`` or a ``FullTextIndexConfiguration``.
public protocol IndexConfiguration: Sendable {
    /// The SQL++ expressions the index covers.
    var expressions: [String] { get }
}
