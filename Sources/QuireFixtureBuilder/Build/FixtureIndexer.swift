import Quire
import QuireFixtures

/// Creates a recipe's indexes in the database a build fills, after every document is in.
///
/// The one seam between fixture builds and Quire's index API, so tests and tools can supply
/// their own. Whatever creates an index must record it in the store's index catalog, which
/// is what ``FixtureVerifier`` compares with the manifest.
public protocol FixtureIndexer: Sendable {
    /// Creates `index` in `collection`.
    func createIndex(_ index: FixtureRecipe.Index, in collection: Quire.Collection) throws
}

/// The indexer builds use unless told otherwise: Quire's own index creation, with value
/// indexes as ``ValueIndexConfiguration`` and full-text ones as ``FullTextIndexConfiguration``.
public struct StoreFixtureIndexer: FixtureIndexer {
    /// Makes the indexer.
    public init() {}

    /// Creates the index in the collection.
    public func createIndex(_ index: FixtureRecipe.Index, in collection: Quire.Collection) throws {
        switch index.kind {
        case .value:
            try collection.createIndex(withName: index.name, config: ValueIndexConfiguration(index.expressions))
        case .fullText:
            try collection.createIndex(
                withName: index.name,
                config: FullTextIndexConfiguration(
                    index.expressions, ignoreAccents: index.ignoreAccents ?? false, language: index.language ?? "en"))
        }
    }
}
