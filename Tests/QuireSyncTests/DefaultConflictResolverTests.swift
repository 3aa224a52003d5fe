import Foundation
import Quire
import Testing

@testable import QuireSync

/// Couchbase Lite's default rule: deletion wins, then the higher generation, then the higher
/// revision ID.
@Suite struct DefaultConflictResolverTests {
    private func revision(_ store: SyncTestDatabase, _ revisionID: String, deleted: Bool = false) throws -> Document? {
        let generation = Int(revisionID.prefix { $0 != "-" }) ?? 1
        let ancestors = (1..<generation).reversed().map { "\($0)-base" }
        try store.collection.insert(
            ForeignRevision(
                documentID: "doc", revisionID: revisionID, ancestors: ancestors, isDeleted: deleted,
                body: deleted ? [:] : ["rev": .string(revisionID)]))
        let document = try store.collection.document(id: "doc", revisionID: revisionID)
        return document?.isDeleted == true ? nil : document
    }

    private func winner(_ local: String, _ remote: String, localDeleted: Bool = false, remoteDeleted: Bool = false)
        throws
        -> String?
    {
        let store = try SyncTestDatabase()
        let conflict = Conflict(
            documentID: "doc", localDocument: try revision(store, local, deleted: localDeleted),
            remoteDocument: try revision(store, remote, deleted: remoteDeleted))
        return ConflictResolver.default.resolve(conflict: conflict)?.revisionID
    }

    @Test func deletionAlwaysWins() throws {
        #expect(try winner("5-aaa", "2-bbb", remoteDeleted: true) == nil)
        #expect(try winner("2-aaa", "5-bbb", localDeleted: true) == nil)
    }

    @Test func higherGenerationWins() throws {
        #expect(try winner("3-aaa", "2-fff") == "3-aaa")
        #expect(try winner("2-fff", "3-aaa") == "3-aaa")
        #expect(try winner("10-aaa", "9-fff") == "10-aaa")
    }

    @Test func equalGenerationsPickTheHigherRevisionID() throws {
        #expect(try winner("2-aaa", "2-bbb") == "2-bbb")
        #expect(try winner("2-bbb", "2-aaa") == "2-bbb")
    }
}
