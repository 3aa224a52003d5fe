import Foundation
import Testing

@testable import Quire

@Suite struct RevisionIDTests {
    private static let top = RevisionID.maximumGeneration

    private func makeCollection(_ directory: TemporaryDirectory) throws -> Collection {
        try Database(name: "revs", config: DatabaseConfiguration(directory: directory.path)).defaultCollection()
    }

    @Test func parsingAcceptsOnlyGenerationsFromOneToTheMaximum() {
        #expect(RevisionID.parse("1-abc")?.generation == 1)
        #expect(RevisionID.parse("\(Self.top)-abc")?.generation == Self.top)
        #expect(RevisionID.parse("\(Self.top)-abc")?.suffix == "abc")
        for bad in [
            "\(Self.top + 1)-abc", "9223372036854775807-abc", "99999999999999999999-abc", "0-abc", "01-abc",
            "-1-abc", "+1-abc", "1.5-abc", "٣-abc", "1-", "-abc", "abc", "", "1-a,b", "1-a b",
            "1-" + String(repeating: "a", count: 129),
        ] {
            #expect(RevisionID.parse(bad) == nil, "\(bad)")
        }
        #expect(RevisionID.parse("1-" + String(repeating: "a", count: 128)) != nil)
    }

    @Test func insertRefusesRevisionIDsOutOfRangeOrMalformedWithBadRevisionID() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        for bad in ["9223372036854775807-abc", "\(Self.top + 1)-abc", "0-abc", "x-abc", "1-a,b"] {
            let error = #expect(throws: QuireError.self) {
                try collection.insert(
                    ForeignRevision(documentID: "d", revisionID: bad, ancestors: [], isDeleted: false, body: [:]))
            }
            #expect(error?.code == .badRevisionID, "\(bad)")
            #expect(error?.code.rawValue == 4)
        }
        let badAncestor = #expect(throws: QuireError.self) {
            try collection.insert(
                ForeignRevision(
                    documentID: "d", revisionID: "2-abc", ancestors: ["18446744073709551617-x"], isDeleted: false,
                    body: [:]))
        }
        #expect(badAncestor?.code == .badRevisionID)
        #expect(try collection.revisionInfo(id: "d") == nil)
    }

    /// The overflow of issue 20 through the library: a document at the maximum generation
    /// (inserted as replication would) cannot be saved, deleted or resolved, and each attempt
    /// is a clear error that changes nothing.
    @Test func aDocumentAtTheMaximumGenerationIsAClearErrorToEditNeverATrap() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        let topRevision = "\(Self.top)-abc"
        try collection.insert(
            ForeignRevision(documentID: "d", revisionID: topRevision, ancestors: [], isDeleted: false, body: ["v": 1]))
        let stored = try #require(try collection.document(id: "d"))
        #expect(stored.revisionID == topRevision)

        let edit = stored.toMutable().setInt(2, forKey: "v")
        let saveError = #expect(throws: QuireError.self) { try collection.save(document: edit) }
        #expect(saveError?.code == .badRevisionID)
        #expect(saveError?.message.contains("\(Self.top)") == true)
        let failOnConflict = #expect(throws: QuireError.self) {
            try collection.save(document: edit, concurrencyControl: .failOnConflict)
        }
        #expect(failOnConflict?.code == .badRevisionID)
        let deleteError = #expect(throws: QuireError.self) { try collection.delete(document: stored) }
        #expect(deleteError?.code == .badRevisionID)

        // A conflicting branch whose resolution would need a child of the top revision.
        try collection.insert(
            ForeignRevision(documentID: "d", revisionID: "1-other", ancestors: [], isDeleted: false, body: ["v": 3]))
        let resolveError = #expect(throws: QuireError.self) { try collection.resolveConflict(id: "d", body: ["v": 4]) }
        #expect(resolveError?.code == .badRevisionID)

        #expect(try collection.document(id: "d")?.revisionID == topRevision)
        #expect(try collection.document(id: "d")?.int(forKey: "v") == 1)
        // One below the top still takes one more edit, which reaches it.
        try collection.insert(
            ForeignRevision(
                documentID: "e", revisionID: "\(Self.top - 1)-abc", ancestors: [], isDeleted: false, body: ["v": 1]))
        let below = try #require(try collection.document(id: "e")).toMutable().setInt(2, forKey: "v")
        try collection.save(document: below)
        #expect(below.revisionID?.hasPrefix("\(Self.top)-") == true)
        // Purging still works.
        try collection.purge(id: "d")
        #expect(try collection.revisionInfo(id: "d") == nil)
    }

    /// A document stored before revision IDs were checked, with the generation of issue 20's
    /// request: its edits are the same clear error, not a trap and not a new generation 1.
    @Test func aStoredRevisionIDOutOfRangeCannotBeEditedOnlyPurged() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.save(document: MutableDocument(id: "old", data: ["v": 1]))
        try collection.writing { connection in
            try connection.run(
                "UPDATE \(collection.table) SET revid = ? WHERE key = ?",
                [.text("9223372036854775807-abc"), .text("old")])
        }
        let stored = try #require(try collection.document(id: "old"))
        let saveError = #expect(throws: QuireError.self) {
            try collection.save(document: stored.toMutable().setInt(2, forKey: "v"))
        }
        #expect(saveError?.code == .badRevisionID)
        #expect(saveError?.message.contains("out of range or malformed") == true)
        #expect(throws: QuireError.self) { try collection.delete(document: stored) }
        #expect(try collection.revisionInfo(id: "old")?.revisionID == "9223372036854775807-abc")
        try collection.purge(id: "old")
        try collection.save(document: MutableDocument(id: "old", data: ["v": 3]))
        #expect(try collection.revisionInfo(id: "old")?.revisionID.hasPrefix("1-") == true)
    }

    @Test func changesAfterASequenceBeyondInt64AreEmptyNotATrap() throws {
        let directory = TemporaryDirectory()
        let collection = try makeCollection(directory)
        try collection.save(document: MutableDocument(id: "a"))
        #expect(try collection.changes(since: UInt64.max).isEmpty)
        #expect(try collection.changes(since: 0).count == 1)
    }

    /// A revision ID is `<parent generation + 1>-<SHA-1 hex>` of the parent ID, NUL, the
    /// deletion flag, NUL and the canonical body, whichever digest implementation runs.
    @Test(arguments: [nil, "1-abc", "9-x", "99-y", "999-z", "\(RevisionID.maximumGeneration - 1)-q"] as [String?])
    func madeIDsAreTheGenerationAndTheDigestOfParentFlagAndBody(parent: String?) throws {
        for deleted in [false, true] {
            for body in ["{}", #"{"a":1}"#, String(repeating: "x", count: 300)] {
                let made = try RevisionID.make(
                    parent: parent, deleted: deleted, canonicalBody: Array(body.utf8), documentID: "d")
                var message = Array((parent ?? "").utf8)
                message += [0, deleted ? 1 : 0, 0] + Array(body.utf8)
                let generation = (parent.flatMap { RevisionID.parse($0)?.generation } ?? 0) + 1
                #expect(made == "\(generation)-" + DigestText.hex(SHA1.hash(data: message)))
            }
        }
    }
}
