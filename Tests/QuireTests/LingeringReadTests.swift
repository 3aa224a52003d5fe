import Foundation
import QuireTestSupport
import Testing

@testable import Quire

/// A point read on a pooled reader leaves its read transaction open until the reader's next
/// use (`Connection.leaveReadOpen`), so that threads reading by turns keep their WAL reader
/// slot taken. These tests hold it to what that must not cost: no read sees an old snapshot,
/// and nothing holds back a checkpoint for longer than the linger time.
@Suite(.offCooperativePool) struct LingeringReadTests {
    private func makeDatabase(_ directory: TemporaryDirectory, documents: Int = 20) throws -> (Database, Collection) {
        let database = try Database(name: "linger", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        try database.inBatch {
            for index in 0..<documents {
                try collection.save(document: MutableDocument(id: "d\(index)").setInt(index, forKey: "n"))
            }
        }
        return (database, collection)
    }

    /// `PRAGMA wal_checkpoint(TRUNCATE)` from a connection of its own that does not wait, as
    /// another process would run it: true when a reader slot in use kept it from finishing.
    private func truncateIsBusy(_ path: String) throws -> Bool {
        let outsider = try Connection(
            path: path, role: .writer, options: Connection.Options(busyTimeoutMilliseconds: 0))
        defer { outsider.close() }
        let busy = try outsider.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int64(at: 0) }
        return busy.first == 1
    }

    @Test func aPointReadStaysOpenUntilTheReadersNextUseAndEveryWriteEndsIt() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try makeDatabase(directory)
        defer { try? database.close() }
        database.core.readLingerNanoseconds = 600_000_000_000
        let path = database.core.path

        #expect(try collection.document(id: "d1")?.int(forKey: "n") == 1)
        #expect(database.core.hasLingeringReads)
        #expect(try truncateIsBusy(path))

        // A save ends it before it writes, so the checkpoint after it is not held back...
        try collection.save(document: MutableDocument(id: "d1").setInt(101, forKey: "n"))
        #expect(!database.core.hasLingeringReads)
        #expect(try !truncateIsBusy(path))
        // ...and the next read starts a snapshot of its own, which holds the save.
        #expect(try collection.document(id: "d1")?.int(forKey: "n") == 101)
        #expect(database.core.hasLingeringReads)

        // A missing or deleted document leaves nothing that matters open, and reads go on.
        #expect(try collection.document(id: "absent") == nil)
        try collection.delete(document: try #require(try collection.document(id: "d2")))
        #expect(try collection.document(id: "d2") == nil)

        // A blockade ends them: the blockading thread may copy or check the file.
        #expect(try collection.document(id: "d3") != nil)
        #expect(database.core.hasLingeringReads)
        database.blockade()
        #expect(!database.core.hasLingeringReads)
        #expect(try !truncateIsBusy(path))
        database.unblockade()

        // So does any other use of the reader: a query takes the same pooled reader back.
        #expect(try collection.document(id: "d4") != nil)
        #expect(database.core.hasLingeringReads)
        #expect(try database.read { try $0.scalarInt("SELECT count(*) FROM docs_1") } == 20)
        #expect(!database.core.hasLingeringReads)
    }

    @Test func aReadInsideAWriteLeavesNothingOpen() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try makeDatabase(directory)
        defer { try? database.close() }
        database.core.readLingerNanoseconds = 600_000_000_000
        try database.inBatch {
            let document = try #require(try collection.document(id: "d5"))
            try collection.save(document: document.toMutable().setInt(5_000, forKey: "n"))
            #expect(try collection.document(id: "d5")?.int(forKey: "n") == 5_000)
        }
        #expect(!database.core.hasLingeringReads)
        #expect(try !truncateIsBusy(database.core.path))
    }

    @Test func theSweepEndsReadsLeftIdle() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try makeDatabase(directory)
        defer { try? database.close() }
        database.core.readLingerNanoseconds = 5_000_000
        #expect(try collection.document(id: "d6") != nil)
        // Ended by the sweep within a few linger times; a test that hangs here fails by timeout.
        waitUntil { !database.core.hasLingeringReads }
        #expect(try !truncateIsBusy(database.core.path))
    }

    @Test func readsOnTwoThreadsNeverSeeASnapshotOlderThanTheLastCommitBeforeThem() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try makeDatabase(directory, documents: 1)
        defer { try? database.close() }
        database.core.readLingerNanoseconds = 600_000_000_000
        let committed = Locked(0)
        let stop = Locked(false)
        let readers = (0..<2).map { _ in
            TestThread {
                var reads = 0
                while !stop.withLock({ $0 }) || reads < 200 {
                    let before = committed.withLock { $0 }
                    let seen = try #require(try collection.document(id: "d0")).int(forKey: "n")
                    if seen < before {
                        throw QuireError(.unexpectedError, "read \(seen) after \(before) was committed")
                    }
                    reads += 1
                }
            }
        }
        for value in 1...300 {
            try collection.save(document: MutableDocument(id: "d0").setInt(value, forKey: "n"))
            committed.withLock { $0 = value }
        }
        stop.withLock { $0 = true }
        for reader in readers { try reader.join() }
        #expect(try collection.document(id: "d0")?.int(forKey: "n") == 300)
    }
}
