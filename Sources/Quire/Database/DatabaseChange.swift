/// The changes one transaction made to a database's default collection, delivered to the
/// listeners of Couchbase Lite 2.x's database-level ``Database/addChangeListener(queue:listener:)``.
public struct DatabaseChange: Sendable {
    /// The database the listener was added to.
    public let database: Database
    /// The IDs of the documents saved, deleted, purged or expired, in the order the
    /// transaction first touched them.
    public let documentIDs: [String]
}
