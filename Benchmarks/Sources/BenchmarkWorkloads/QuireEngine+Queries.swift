import Foundation
import Quire

/// The query workloads through Quire's public API: ``QueryBuilder`` queries, a value index
/// and a full-text index made with `createIndex`, rows read with the typed getters.
extension QuireEngine {
    /// The name of the full-text index on `description`.
    static let descriptionIndex = "descriptionText"

    public func query(_ subject: QuerySubject) throws -> Int {
        let query =
            QueryBuilder
            .select(SelectResult.expression(Meta.id), SelectResult.property(subject.selectPath))
            .from(DataSource.collection(collection))
            .where(Expression.property(subject.filterPath).equalTo(Expression.string(subject.value)))
        var total = 0
        for row in try query.execute() {
            total &+= (row.string(at: 0)?.utf8.count ?? 0) &+ (row.string(at: 1)?.utf8.count ?? 0)
        }
        return total
    }

    public func createIndex(_ subject: QuerySubject) throws {
        try collection.createIndex(withName: subject.indexName, config: ValueIndexConfiguration([subject.filterPath]))
    }

    public func dropIndex(_ subject: QuerySubject) throws {
        try collection.deleteIndex(forName: subject.indexName)
    }

    public func createDescriptionIndex() throws {
        try collection.createIndex(
            withName: Self.descriptionIndex, config: FullTextIndexConfiguration(["description"], language: "en"))
    }

    public func matchDescription(_ terms: String) throws -> Int {
        let query =
            QueryBuilder
            .select(SelectResult.expression(Meta.id), SelectResult.property("name"))
            .from(DataSource.collection(collection))
            .where(FullTextFunction.match(Self.descriptionIndex, query: terms))
        var total = 0
        for row in try query.execute() {
            total &+= (row.string(at: 0)?.utf8.count ?? 0) &+ (row.string(at: 1)?.utf8.count ?? 0)
        }
        return total
    }
}
