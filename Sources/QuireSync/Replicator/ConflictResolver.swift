/// The built-in resolvers.
public enum ConflictResolver {
    /// Couchbase Lite's default rule (``DefaultConflictResolver``).
    public static let `default`: ConflictResolverProtocol = DefaultConflictResolver()
}
