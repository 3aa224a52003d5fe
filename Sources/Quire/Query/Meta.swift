/// Expressions for a document's metadata, usable like properties in every clause.
///
/// ```swift
/// QueryBuilder.select(SelectResult.expression(Meta.id), SelectResult.expression(Meta.expiration))
/// ```
public enum Meta {
    /// The document ID (result key `id`).
    public static var id: any MetaExpressionProtocol { QueryExpression(.meta(.id, source: nil)) }

    /// The current revision ID (result key `revisionID`).
    public static var revisionID: any MetaExpressionProtocol { QueryExpression(.meta(.revisionID, source: nil)) }

    /// The collection sequence of the current revision (result key `sequence`).
    public static var sequence: any MetaExpressionProtocol { QueryExpression(.meta(.sequence, source: nil)) }

    /// Whether the document is deleted (result key `deleted`). A query whose WHERE clause
    /// tests it sees deleted documents too, as in Couchbase Lite; any other query sees only
    /// live ones.
    public static var isDeleted: any MetaExpressionProtocol { QueryExpression(.meta(.isDeleted, source: nil)) }

    /// When the document expires, in milliseconds since the epoch; MISSING when it does not
    /// (result key `expiration`).
    public static var expiration: any MetaExpressionProtocol { QueryExpression(.meta(.expiration, source: nil)) }
}
