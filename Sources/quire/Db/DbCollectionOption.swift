import ArgumentParser
import Quire
import QuireFixtureBuilder

/// The `-c COLLECTION` option of the `quire db` subcommands that work in one collection.
struct DbCollectionOption: ParsableArguments {
    @Option(
        name: .shortAndLong, help: "The collection (scope.name or name); the default collection when left out.",
        completion: .custom(DbDatabaseArgument.completeCollections))
    var collection: String?

    /// The collection in `database`, which must exist.
    ///
    /// - Throws: `QuireError.notFound` naming the collections there are.
    func collection(in database: Database) throws -> Quire.Collection {
        try database.collection(.named(collection))
    }
}
