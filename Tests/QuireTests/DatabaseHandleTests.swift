import Foundation
import QuireTestSupport
import Testing

@testable import Quire

@Suite(.offCooperativePool) struct DatabaseHandleTests {
    private func createTable(_ database: Database) throws {
        try database.write {
            try $0.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, thread INTEGER, n INTEGER)")
        }
    }

    private func rowCount(_ database: Database) throws -> Int64 {
        try database.read { try $0.scalarInt("SELECT count(*) FROM t") ?? -1 }
    }

    @Test func initByPathOpensNothingUntilTheFirstOperation() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("lazy.db")
        let database = Database(path: path)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!database.isOpened)
        try createTable(database)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(database.isOpened)
        let fileURLDatabase = Database(fileURL: URL(fileURLWithPath: directory.file("other.db")))
        #expect(!fileURLDatabase.isOpened)
        #expect(!FileManager.default.fileExists(atPath: directory.file("other.db")))
    }

    @Test func objectsOnOnePathShareTheCoreAndTag() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("a"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.file("link"), withDestinationPath: directory.path)
        let first = Database(path: directory.file("shared.db"))
        let dotted = Database(path: directory.file("a/../shared.db"))
        let linked = Database(path: directory.file("link/shared.db"))
        #expect(first.core === dotted.core)
        #expect(first.core === linked.core)
        let tag = Int.random(in: 1_000_000...9_000_000)
        first.tag = tag
        #expect(dotted.tag == tag)
        #expect(linked.tag == tag)
        let byTag = try Database(tag: tag)
        #expect(byTag.core === first.core)
        try createTable(first)
        #expect(linked.isOpened)
        let unknown = #expect(throws: QuireError.self) { try Database(tag: -tag) }
        #expect(unknown?.code == .notFound)
    }

    @Test func canOpenIsFalseWhereNoDatabaseCanBe() throws {
        let directory = TemporaryDirectory()
        #expect(!Database(path: directory.file("missing/dir/x.db")).canOpen)
        #expect(!Database(path: "/proc/quire-cannot-write-here.db").canOpen)
        let notADatabase = directory.file("garbage.db")
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: notADatabase))
        #expect(!Database(path: notADatabase).canOpen)
        let good = Database(path: directory.file("good.db"))
        #expect(good.canOpen)
        #expect(good.isOpened)
    }

    @Test func aBlockadeHoldsAnotherThreadsWriteUntilUnblockade() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("blockade.db"))
        try createTable(database)
        let log = EventLog()
        database.blockade()
        #expect(database.isBlockaded)
        log.record("blockaded")
        let writer = TestThread {
            log.record("write requested")
            try database.write { try $0.run("INSERT INTO t (thread, n) VALUES (1, 1)") }
            log.record("write done")
        }
        waitUntil { database.core.waitingCount > 0 }
        // The blockading thread itself goes on working.
        #expect(try rowCount(database) == 0)
        log.record("unblockade")
        database.unblockade()
        try writer.join()
        #expect(!database.isBlockaded)
        let events = log.events
        #expect(events == ["blockaded", "write requested", "unblockade", "write done"])
        #expect(try rowCount(database) == 1)
    }

    @Test func closeRunsItsCallbackWithNoHandlesAndLaterReadsSeeTheReplacement() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("main.db")
        let replacementPath = directory.file("replacement.db")
        let database = Database(path: path)
        let other = Database(path: path)
        try createTable(database)
        try database.write { try $0.run("INSERT INTO t (thread, n) VALUES (0, 1)") }
        #expect(try rowCount(other) == 1)

        let replacement = Database(path: replacementPath)
        try createTable(replacement)
        try replacement.write { connection in
            for n in 0..<5 { try connection.run("INSERT INTO t (thread, n) VALUES (9, ?)", [.integer(Int64(n))]) }
        }
        try replacement.close(onClosed: {})

        var handlesInCallback = -1
        try database.close {
            handlesInCallback = database.core.openHandleCount
            #expect(!database.isOpened)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: replacementPath, toPath: path)
        }
        #expect(handlesInCallback == 0)
        #expect(!database.isBlockaded)
        #expect(try rowCount(other) == 5)
        #expect(try rowCount(database) == 5)
    }

    @Test func closeWaitsForHandlesInUseOnOtherThreads() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("wait.db"))
        try createTable(database)
        let log = EventLog()
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let reader = TestThread {
            _ = try database.read { connection in
                inside.signal()
                release.wait()
                log.record("read finished")
                return try connection.scalarInt("SELECT count(*) FROM t")
            }
        }
        inside.wait()
        let closer = TestThread {
            try database.close { log.record("closed") }
        }
        waitUntil { database.isBlockaded }
        release.signal()
        try closer.join()
        try reader.join()
        #expect(log.events == ["read finished", "closed"])
    }

    @Test func purgeFreeHandlesLeavesNoIdleHandles() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("purge.db"))
        try createTable(database)
        let gate = DispatchSemaphore(value: 0)
        let readers = (0..<2).map { _ in
            TestThread {
                _ = try database.read { _ in gate.wait() }
            }
        }
        waitUntil { database.core.openHandleCount >= 3 }
        gate.signal()
        gate.signal()
        try readers.forEach { try $0.join() }
        #expect(database.core.freeHandleCount >= 2)
        database.purgeFreeHandles()
        #expect(database.core.freeHandleCount == 0)
        #expect(try rowCount(database) == 0)

        let second = Database(path: directory.file("purge2.db"))
        try createTable(second)
        #expect(second.core.freeHandleCount > 0)
        Database.purgeFreeHandlesInAllDatabases()
        #expect(second.core.freeHandleCount == 0)
        #expect(database.core.freeHandleCount == 0)
        try second.write { try $0.run("INSERT INTO t (thread, n) VALUES (1, 1)") }
        #expect(try rowCount(second) == 1)
    }

    @Test func freeReadersAreKeptUpToTheProcessorCount() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("pool.db"))
        try createTable(database)
        let limit = database.core.maximumFreeReaders
        #expect(limit == max(1, ProcessInfo.processInfo.activeProcessorCount))
        // More readers at once than are kept: each holds its snapshot until all are open.
        let count = limit + 3
        let gate = DispatchSemaphore(value: 0)
        let readers = (0..<count).map { _ in
            TestThread { _ = try database.read { _ in gate.wait() } }
        }
        waitUntil { database.core.openHandleCount >= count + 1 }
        for _ in 0..<count { gate.signal() }
        try readers.forEach { try $0.join() }
        // The writer plus at most `limit` readers stay; the rest were closed on return.
        #expect(database.core.openHandleCount == limit + 1)
        #expect(database.core.freeHandleCount == limit + 1)
        #expect(try rowCount(database) == 0)
    }

    @Test func theBlockadingThreadCanCloseWhileOthersWait() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("blockade-close.db"))
        let other = Database(path: directory.file("blockade-close.db"))
        try createTable(database)
        let log = EventLog()
        database.blockade()
        let writer = TestThread {
            try other.write { try $0.run("INSERT INTO t (thread, n) VALUES (2, 2)") }
            log.record("other thread wrote")
        }
        waitUntil { database.core.waitingCount > 0 }
        try database.close {
            log.record("closed: \(database.core.openHandleCount) handles")
        }
        #expect(database.isBlockaded)
        database.unblockade()
        try writer.join()
        #expect(log.events == ["closed: 0 handles", "other thread wrote"])
        #expect(try rowCount(database) == 1)
    }

    @Test func aWriterWaitsForALockHeldOutsideTheCoreUpToItsBusyTimeout() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("busy.db")
        let database = Database(path: path)
        try createTable(database)
        // A connection of its own, as another process would have: it holds the write lock.
        let outsider = try Connection(path: path, role: .writer, options: Connection.Options())
        try outsider.execute("BEGIN IMMEDIATE")
        let log = EventLog()
        let writer = TestThread {
            try database.write { try $0.run("INSERT INTO t (thread, n) VALUES (1, 1)") }
            log.record("quire wrote")
        }
        // The write waits (busy timeout) instead of failing, until the outsider commits.
        waitUntil { database.core.hasActiveWriter }
        log.record("outsider commits")
        try outsider.execute("COMMIT")
        try writer.join()
        #expect(log.events == ["outsider commits", "quire wrote"])
        #expect(try rowCount(database) == 1)

        // With a short timeout, a lock that is never released ends in SQLite's busy error.
        let impatientPath = directory.file("impatient.db")
        let impatient = Database(path: impatientPath)
        impatient.core.options = Connection.Options(busyTimeoutMilliseconds: 50)
        try createTable(impatient)
        let holder = try Connection(path: impatientPath, role: .writer, options: Connection.Options())
        try holder.execute("BEGIN IMMEDIATE")
        let error = #expect(throws: QuireError.self) {
            try impatient.write { try $0.run("INSERT INTO t (thread, n) VALUES (1, 1)") }
        }
        #expect(error?.domain == .sqlite)
        #expect(error?.underlyingCode == 5)  // SQLITE_BUSY
        try holder.execute("ROLLBACK")
        try impatient.write { try $0.run("INSERT INTO t (thread, n) VALUES (1, 1)") }
        #expect(try rowCount(impatient) == 1)
    }

    @Test func closingFromInsideItsOwnOperationThrowsInsteadOfDeadlocking() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("deadlock.db"))
        try createTable(database)
        let fromRead = #expect(throws: QuireError.self) {
            try database.read { _ in try database.close(onClosed: {}) }
        }
        #expect(fromRead?.code == .busy)
        let fromWrite = #expect(throws: QuireError.self) {
            try database.write { _ in try database.close(onClosed: {}) }
        }
        #expect(fromWrite?.code == .transactionNotClosed)
        let plainClose = #expect(throws: QuireError.self) {
            try database.write { _ in try database.close() }
        }
        #expect(plainClose?.code == .transactionNotClosed)
        #expect(try rowCount(database) == 0)
    }

    @Test func closeEndsTheObjectButNotOthersOnThePath() throws {
        let directory = TemporaryDirectory()
        let first = Database(path: directory.file("close.db"))
        let second = Database(path: directory.file("close.db"))
        try createTable(first)
        try first.close()
        let error = #expect(throws: QuireError.self) { try rowCount(first) }
        #expect(error?.code == .notOpen)
        #expect(try rowCount(second) == 0)
        try second.close()
        #expect(!second.isOpened)
    }

    @Test func eightThreadsOfMixedReadsAndWritesEndWithExactCounts() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("stress.db"))
        try createTable(database)
        let threads = 8
        let operations = 2_000
        let workers = (0..<threads).map { thread in
            TestThread {
                var written: Int64 = 0
                for n in 0..<operations {
                    if n % 2 == 0 {
                        try database.write { connection in
                            try connection.run(
                                "INSERT INTO t (thread, n) VALUES (?, ?)",
                                [.integer(Int64(thread)), .integer(Int64(n))])
                        }
                        written += 1
                    } else {
                        let seen = try database.read { connection in
                            try connection.scalarInt(
                                "SELECT count(*) FROM t WHERE thread = ?", [.integer(Int64(thread))])
                        }
                        if seen != written {
                            throw QuireError(
                                .unexpectedError, "thread \(thread) saw \(seen ?? -1) of its \(written) rows")
                        }
                    }
                }
            }
        }
        try workers.forEach { try $0.join() }
        #expect(try rowCount(database) == Int64(threads * operations / 2))
    }

    @Test func aLongWriteDoesNotBlockReaders() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("snapshot.db"))
        try createTable(database)
        let inside = DispatchSemaphore(value: 0)
        let finish = DispatchSemaphore(value: 0)
        let writer = TestThread {
            try database.write { connection in
                try connection.run("INSERT INTO t (thread, n) VALUES (1, 1)")
                inside.signal()
                finish.wait()
            }
        }
        inside.wait()
        // The write transaction is open and holds the writer; a reader goes straight through.
        #expect(try rowCount(database) == 0)
        finish.signal()
        try writer.join()
        #expect(try rowCount(database) == 1)
    }

    @Test func nestedWritesJoinTheOuterTransactionAndRollBackTogether() throws {
        let directory = TemporaryDirectory()
        let database = Database(path: directory.file("nested.db"))
        try createTable(database)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try database.write { connection in
                try connection.run("INSERT INTO t (thread, n) VALUES (1, 1)")
                try database.write { try $0.run("INSERT INTO t (thread, n) VALUES (1, 2)") }
                #expect(try database.read { try $0.scalarInt("SELECT count(*) FROM t") } == 2)
                throw Stop()
            }
        }
        #expect(try rowCount(database) == 0)
    }

    // MARK: Checkpoints

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Commits no longer checkpoint the WAL themselves: a background checkpoint copies it into
    /// the database file once it passes SQLite's usual threshold of 1,000 frames, and the WAL
    /// stays bounded under constant writing (past 4,000 frames the writer checkpoints itself).
    /// Each document fills a page of its own (three quarters of one), whatever the file's page
    /// size, so a document is a frame.
    @Test func theWALIsCheckpointedInTheBackgroundAndStaysBounded() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "wal", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        let pageSize = try #require(try database.read { try $0.scalarInt("PRAGMA page_size") })
        let filler = String(repeating: "x", count: Int(pageSize) * 3 / 4)
        let threshold = Int(DatabaseCore.checkpointThreshold)
        // Over the threshold, under four times it.
        try database.inBatch {
            for number in 0..<(threshold * 3 / 2) {
                try collection.save(document: MutableDocument(id: "d\(number)", data: ["filler": filler]))
            }
        }
        let file = database.filePath
        let copied = threshold * Int(pageSize)
        let deadline = Date().addingTimeInterval(60)
        while fileSize(file) < copied, Date() < deadline { usleep(1_000) }
        #expect(fileSize(file) >= copied, "no checkpoint copied the WAL into the database file")
        // Thirty more rounds of 600 frames each, without a pause: unchecked, the WAL would
        // hold 19,500 frames; checked, it stays near four times the threshold. The writer's own
        // checkpoint is passive: while the background one holds the checkpoint lock (descheduled
        // on a loaded machine, 3,000 frames past the four times in one CI run), rounds pass it,
        // so the bound is ten times the threshold, half of the unchecked WAL.
        for round in 0..<30 {
            try database.inBatch {
                for number in 0..<600 {
                    try collection.save(document: MutableDocument(id: "r\(round)-\(number)", data: ["filler": filler]))
                }
            }
        }
        #expect(fileSize(file + "-wal") < threshold * 10 * (Int(pageSize) + 24))
        #expect(collection.count == threshold * 3 / 2 + 30 * 600)
    }

    @Test func closingRightAfterABigCommitKeepsEverything() throws {
        let directory = TemporaryDirectory()
        let config = DatabaseConfiguration(directory: directory.path)
        var database = try Database(name: "wal", config: config)
        let filler = String(repeating: "y", count: 4_000)
        try database.inBatch {
            let collection = try database.defaultCollection()
            for number in 0..<1_200 {
                try collection.save(document: MutableDocument(id: "d\(number)", data: ["filler": filler]))
            }
        }
        try database.close()
        database = try Database(name: "wal", config: config)
        #expect(try database.defaultCollection().count == 1_200)
        #expect(try database.defaultCollection().document(id: "d1199")?.string(forKey: "filler") == filler)
    }
}
