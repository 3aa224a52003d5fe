import Foundation
import Testing

@testable import Quire

@Suite struct MetaTests {
    @Test func everyMetaFieldIsQueryable() throws {
        let f = try QueryFixture()
        try f.save(["a": #"{"v":1}"#, "b": #"{"v":2}"#])
        let expiry = f.clock.now.addingTimeInterval(3600)
        try f.collection.setDocumentExpiration(id: "b", expiration: expiry)
        let a = try #require(try f.collection.document(id: "a"))
        let b = try #require(try f.collection.document(id: "b"))
        let query = QueryBuilder.select(
            SelectResult.expression(Meta.id), SelectResult.expression(Meta.revisionID),
            SelectResult.expression(Meta.sequence), SelectResult.expression(Meta.isDeleted),
            SelectResult.expression(Meta.expiration)
        ).from(DataSource.collection(f.collection)).orderBy(Ordering.expression(Meta.id))
        let rows = try query.execute().allResults()
        #expect(rows.count == 2)
        #expect(rows[0].string(forKey: "id") == "a")
        #expect(rows[0].string(forKey: "revisionID") == a.revisionID)
        #expect(rows[0].int64(forKey: "sequence") == Int64(a.sequence))
        #expect(rows[0].value(forKey: "deleted") as? Bool == false)
        #expect(rows[0].value(forKey: "expiration") == nil)
        #expect(!rows[0].contains(key: "expiration"))
        #expect(rows[1].string(forKey: "revisionID") == b.revisionID)
        #expect(rows[1].int64(forKey: "expiration") == QueryClock.milliseconds(expiry))

        let sqlpp = try f.database.createQuery(
            "SELECT meta().id, meta().revisionID, meta().sequence, meta().deleted, meta().expiration FROM store.items ORDER BY meta().id"
        )
        #expect(try sqlpp.rows() == query.rows())

        let byExpiration = try f.database.createQuery(
            "SELECT meta().id FROM store.items WHERE meta().expiration > $now"
        ).with("now", .int(QueryClock.milliseconds(f.clock.now)))
        #expect(try byExpiration.rows() == [#"{"id":"b"}"#])
        let bySequence = QueryBuilder.select(SelectResult.expression(Meta.id)).from(
            DataSource.collection(f.collection).as("x")
        )
        .where(Meta.sequence.from("x").equalTo(Expression.int64(Int64(a.sequence))))
        #expect(try bySequence.rows() == [#"{"id":"a"}"#])
    }

    @Test func expiredDocumentsDisappearWhenTheClockPassesTheirExpiration() throws {
        let f = try QueryFixture()
        try f.save(["a": #"{"v":1}"#, "b": #"{"v":2}"#])
        try f.collection.setDocumentExpiration(id: "a", expiration: f.clock.now.addingTimeInterval(60))
        let query = QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.collection(f.collection))
            .orderBy(Ordering.expression(Meta.id))
        #expect(try query.rows() == [#"{"id":"a"}"#, #"{"id":"b"}"#])
        f.clock.advance(by: 61)
        #expect(try query.rows() == [#"{"id":"b"}"#])
    }

    /// As LiteCore's SelectNode: `Meta.isDeleted` anywhere in the query (here in the results)
    /// brings the deleted documents in.
    @Test func deletedDocumentsAppearOnlyWhenTheQueryAsksForThem() throws {
        let f = try QueryFixture()
        try f.save(["a": #"{"v":1}"#, "b": #"{"v":2}"#])
        try f.collection.delete(document: try #require(try f.collection.document(id: "b")))
        let live = QueryBuilder.select(SelectResult.expression(Meta.id))
            .from(DataSource.collection(f.collection)).orderBy(Ordering.expression(Meta.id))
        #expect(try live.rows() == [#"{"id":"a"}"#])
        let flagged = QueryBuilder.select(SelectResult.expression(Meta.id), SelectResult.expression(Meta.isDeleted))
            .from(DataSource.collection(f.collection)).orderBy(Ordering.expression(Meta.id))
        #expect(try flagged.rows() == [#"{"deleted":false,"id":"a"}"#, #"{"deleted":true,"id":"b"}"#])
        let deleted = QueryBuilder.select(SelectResult.expression(Meta.id)).from(DataSource.collection(f.collection))
            .where(Meta.isDeleted.equalTo(Expression.boolean(true)))
        #expect(try deleted.rows() == [#"{"id":"b"}"#])
        #expect(
            try f.database.createQuery("SELECT meta().id FROM store.items WHERE meta().deleted").rows() == [
                #"{"id":"b"}"#
            ])
    }
}

extension Query {
    /// The query with one parameter set.
    func with(_ name: String, _ value: JSONValue) -> Query {
        let parameters = Parameters(parameters: self.parameters)
        parameters.setJSONValue(value, forName: name)
        self.parameters = parameters
        return self
    }
}
