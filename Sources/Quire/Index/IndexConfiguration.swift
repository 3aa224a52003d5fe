/// What ``Collection/createIndex(withName:config:)`` accepts: a ``ValueIndexConfiguration``,
/// a ``FullTextIndexConfiguration`` or an ``ArrayIndexConfiguration``.
public protocol IndexConfiguration: Sendable {}
