import Quire

/// Creates a recipe's indexes in the database a build fills, after every document is in.
///
/// The one seam between fixture builds and Quire's index API, so tests and tools can supply
/// their own. Whatever creates an index must record it in the store's index catalog, which
/// is what ``FixtureVerifier`` compares with the manifest.
public protocol FixtureIndexer: Sendable {
    /// Creates `index` in `collection`.
    func createIndex(_ index: FixtureRecipe.Index, in collection: Quire.Collection) throws
}

/// The indexer builds use unless told otherwise: Quire's own index creation.
///
/// This Quire does not create indexes yet (`Collection.createIndex(withName:config:)` with
/// `ValueIndexConfiguration` and `FullTextIndexConfiguration` is on its way), so it refuses
/// with `unsupported`, naming the index: a recipe with indexes fails loudly instead of
/// producing a fixture without them. Wiring it is this one method.
public struct StoreFixtureIndexer: FixtureIndexer {
    /// Makes the indexer.
    public init() {}

    /// Refuses with `unsupported`, naming the index and its collection.
    public func createIndex(_ index: FixtureRecipe.Index, in collection: Quire.Collection) throws {
        let kind = index.kind == .value ? "value" : "full-text"
        throw QuireError(
            .unsupported,
            "cannot create the \(kind) index '\(index.name)' on \(collection.fullName): this Quire cannot create indexes "
                + "yet (Collection.createIndex); build without indexes, or with a FixtureIndexer that can")
    }
}
