/// Where a query reads documents from: a collection, optionally under an alias.
public struct DataSource: Sendable {
    let collection: Collection
    let alias: String?

    /// The collection's live, unexpired documents.
    public static func collection(_ collection: Collection) -> DataSource {
        DataSource(collection: collection, alias: nil)
    }

    /// The same source under `alias`, by which properties (`alias.name`), ``Meta`` and
    /// ``SelectResult/all()`` refer to it. Without an alias the collection's name serves.
    public func `as`(_ alias: String) -> DataSource {
        DataSource(collection: collection, alias: alias)
    }

    var plan: QueryPlan.Source {
        QueryPlan.Source(collection: collection, alias: alias ?? collection.name)
    }
}
