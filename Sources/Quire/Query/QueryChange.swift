/// What a live query's listener receives: the new results, or the error the run ended with.
public struct QueryChange: Sendable {
    /// The query that ran.
    public let query: Query
    /// The results, nil when the run failed.
    public let results: ResultSet?
    /// Why the run failed, nil when it succeeded.
    public let error: (any Error)?
}
