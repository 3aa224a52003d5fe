import Testing

@testable import Quire

/// A transaction's changes are kept as document IDs with runs of collections: they read back
/// in order, and a rolled-back savepoint's changes are forgotten, runs included.
@Suite struct ChangeLogTests {
    private func contents(_ log: ChangeLog) -> [String] {
        var seen: [String] = []
        log.forEach { collectionID, documentID in seen.append("\(collectionID)/\(documentID)") }
        return seen
    }

    @Test func changesReadBackInOrderAcrossCollections() {
        var log = ChangeLog()
        #expect(log.count == 0)
        for (collection, id) in [(1, "a"), (1, "b"), (2, "c"), (1, "d"), (1, "a")] as [(Int64, String)] {
            log.append(collectionID: collection, documentID: id)
        }
        #expect(log.count == 5)
        #expect(contents(log) == ["1/a", "1/b", "2/c", "1/d", "1/a"])
    }

    @Test func truncatingForgetsTheLaterChangesAndTheirRuns() {
        var log = ChangeLog()
        log.append(collectionID: 1, documentID: "a")
        log.append(collectionID: 2, documentID: "b")
        log.append(collectionID: 2, documentID: "c")
        log.truncate(to: 2)
        #expect(contents(log) == ["1/a", "2/b"])
        log.truncate(to: 1)
        log.append(collectionID: 1, documentID: "d")
        log.append(collectionID: 3, documentID: "e")
        #expect(contents(log) == ["1/a", "1/d", "3/e"])
        log.truncate(to: 5)
        #expect(log.count == 3)
        log.truncate(to: 0)
        #expect(contents(log).isEmpty)
    }
}
