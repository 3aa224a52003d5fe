import Foundation
import Testing

@testable import Quire

@Suite struct RevisionTreeTests {
    private func makeCollection(_ directory: TemporaryDirectory) throws -> Collection {
        try Database(name: "tree", config: DatabaseConfiguration(directory: directory.path)).defaultCollection()
    }

    private func revision(
        _ id: String, _ revisionID: String, _ ancestors: [String] = [], deleted: Bool = false, n: Int = 0
    )
        -> ForeignRevision
    {
        ForeignRevision(
            documentID: id, revisionID: revisionID, ancestors: ancestors, isDeleted: deleted,
            body: deleted ? [:] : ["n": .int(Int64(n))])
    }

    @Test func insertingExtendsTheBranchItsAncestryNames() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        #expect(
            try collection.insert(revision("d", "1-aa", n: 1)) == .inserted(isCurrent: true, createdConflict: false))
        #expect(
            try collection.insert(revision("d", "2-bb", ["1-aa"], n: 2))
                == .inserted(isCurrent: true, createdConflict: false))
        #expect(try collection.document(id: "d")?.int(forKey: "n") == 2)
        #expect(try collection.revisionInfo(id: "d")?.history == ["1-aa"])
        #expect(try collection.insert(revision("d", "1-aa")) == .alreadyKnown)
        #expect(try collection.insert(revision("d", "2-bb", ["1-aa"])) == .alreadyKnown)
        #expect(try collection.leaves(id: "d").count == 1)
    }

    @Test func aSecondBranchIsAConflictAndTheWinnerIsDeterministic() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.insert(revision("d", "1-aa", n: 1))
        try collection.insert(revision("d", "2-bb", ["1-aa"], n: 2))
        #expect(
            try collection.insert(revision("d", "2-cc", ["1-aa"], n: 3))
                == .inserted(isCurrent: true, createdConflict: true))
        #expect(try collection.document(id: "d")?.revisionID == "2-cc")
        #expect(try collection.conflictingRevisionIDs(id: "d") == ["2-bb"])
        #expect(
            try collection.insert(revision("d", "3-aa", ["2-bb", "1-aa"], n: 4))
                == .inserted(isCurrent: true, createdConflict: true))
        #expect(try collection.document(id: "d")?.int(forKey: "n") == 4)
        #expect(try collection.conflictingRevisionIDs(id: "d") == ["2-cc"])
    }

    @Test func aLiveLeafBeatsADeletedOneOfHigherGeneration() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.insert(revision("d", "1-aa", n: 1))
        try collection.insert(revision("d", "2-bb", ["1-aa"], n: 2))
        let outcome = try collection.insert(revision("d", "5-ff", ["4-ee", "3-dd", "2-cc", "1-aa"], deleted: true))
        #expect(outcome == .inserted(isCurrent: false, createdConflict: false))
        #expect(try collection.document(id: "d")?.revisionID == "2-bb")
        #expect(try collection.conflictingRevisionIDs(id: "d").isEmpty)
        #expect(try collection.changes(since: 0).first?.leafRevisionIDs == ["2-bb", "5-ff"])
    }

    @Test func aForeignHistoryLongerThanTheDepthIsPrunedToIt() throws {
        let directory = TemporaryDirectory()
        let database = try Database(
            name: "tree", config: DatabaseConfiguration(directory: directory.path, maxRevTreeDepth: 5))
        let collection = try database.defaultCollection()
        // Generation 30 with its 29 ancestors, newest first, as `_revisions` gives them.
        let ancestors = (1...29).reversed().map { "\($0)-a\($0)" }
        #expect(
            try collection.insert(revision("d", "30-a30", ancestors, n: 30))
                == .inserted(isCurrent: true, createdConflict: false))

        let kept = ["29-a29", "28-a28", "27-a27", "26-a26"]
        #expect(try collection.revisionInfo(id: "d")?.history == kept)
        let leaf = try #require(try collection.leaves(id: "d").first)
        #expect(leaf.revisionID == "30-a30")
        #expect(leaf.ancestors == kept)
        #expect(try collection.document(id: "d")?.int(forKey: "n") == 30)
        // What was pruned is no longer known; what was kept is.
        #expect(
            try collection.missingRevisions(id: "d", revisionIDs: ["30-a30", "26-a26", "25-a25", "1-a1"]).missing == [
                "25-a25", "1-a1",
            ])

        // The next revision keeps the same depth, dropping the oldest kept ancestor.
        try collection.insert(revision("d", "31-a31", ["30-a30"] + ancestors, n: 31))
        #expect(try collection.revisionInfo(id: "d")?.history == ["30-a30", "29-a29", "28-a28", "27-a27"])
        #expect(try collection.leaves(id: "d").count == 1)
        try database.close()
    }

    @Test func revsDiffNamesWhatIsMissing() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.insert(revision("d", "2-bb", ["1-aa"], n: 2))
        let diff = try collection.missingRevisions(id: "d", revisionIDs: ["1-aa", "2-bb", "3-cc", "2-zz"])
        #expect(diff.missing == ["3-cc", "2-zz"])
        #expect(diff.possibleAncestors == ["2-bb"])
        #expect(try collection.missingRevisions(id: "other", revisionIDs: ["1-x"]).missing == ["1-x"])
    }

    @Test func resolvingClosesTheLosingBranches() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.insert(revision("d", "1-aa", n: 1))
        try collection.insert(revision("d", "2-bb", ["1-aa"], n: 2))
        try collection.insert(revision("d", "2-cc", ["1-aa"], n: 3))
        try collection.resolveConflict(id: "d", body: ["n": 5])
        #expect(try collection.conflictingRevisionIDs(id: "d").isEmpty)
        let current = try #require(try collection.document(id: "d"))
        #expect(current.int(forKey: "n") == 5)
        #expect(current.revisionID?.hasPrefix("3-") == true)
        let leaves = try collection.leaves(id: "d")
        #expect(leaves.count == 2)
        #expect(leaves.filter(\.isDeleted).count == 1)
    }

    @Test func localSavesBuildOnTheWinnerAndPurgeRemovesTheTree() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.insert(revision("d", "1-aa", n: 1))
        try collection.insert(revision("d", "2-bb", ["1-aa"], n: 2))
        try collection.insert(revision("d", "2-cc", ["1-aa"], n: 3))
        let document = try #require(try collection.document(id: "d")).toMutable()
        document.setInt(9, forKey: "n")
        try collection.save(document: document)
        #expect(document.revisionID?.hasPrefix("3-") == true)
        #expect(try collection.conflictingRevisionIDs(id: "d") == ["2-bb"])
        try collection.purge(id: "d")
        #expect(try collection.leaves(id: "d").isEmpty)
    }

    @Test func theChangesFeedFollowsSequences() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.save(document: MutableDocument(id: "a"))
        try collection.save(document: MutableDocument(id: "b"))
        let a = try #require(try collection.document(id: "a"))
        try collection.delete(document: a)
        let all = try collection.changes(since: 0)
        #expect(all.map(\.documentID) == ["b", "a"])
        #expect(all.last?.isDeleted == true)
        #expect(try collection.changes(since: 2).map(\.documentID) == ["a"])
        #expect(try collection.changes(since: 0, limit: 1).count == 1)
        #expect(try collection.lastSequence() == 3)
    }

    @Test func badForeignRevisionsAreRejected() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        let bad = #expect(throws: QuireError.self) { try collection.insert(revision("d", "nonsense")) }
        #expect(bad?.code == .badRevisionID)
        let reserved = #expect(throws: QuireError.self) {
            try collection.insert(
                ForeignRevision(
                    documentID: "d", revisionID: "1-a", ancestors: [], isDeleted: false, body: ["_rev": "x"]))
        }
        #expect(reserved?.code == .corruptRevisionData)
    }
}

@Suite struct LocalDocumentTests {
    @Test func localDocumentsAreStoredApartFromRevisions() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "local", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        #expect(try collection.localDocument(id: "cp") == nil)
        try collection.setLocalDocument(id: "cp", body: ["seq": 5])
        #expect(try collection.localDocument(id: "cp") == ["seq": 5])
        #expect(collection.count == 0)
        #expect(try collection.changes(since: 0).isEmpty)
        try collection.setLocalDocument(id: "cp", body: nil)
        #expect(try collection.localDocument(id: "cp") == nil)
        #expect(throws: QuireError.self) { try collection.setLocalDocument(id: "", body: [:]) }
    }
}
