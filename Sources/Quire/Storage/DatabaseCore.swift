import CSQLite
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An identifier of the calling thread, used to tell the blockading or writing thread apart.
typealias ThreadID = UInt

@inline(__always)
func currentThreadID() -> ThreadID {
    #if canImport(Glibc)
        return ThreadID(pthread_self())
    #else
        return ThreadID(bitPattern: pthread_self())
    #endif
}

/// The shared state behind every ``Database`` object of one file: the writer connection,
/// the pool of readers, the tag and the blockade.
///
/// Concurrency contract:
/// - one writer at a time; `write` is one transaction (`BEGIN IMMEDIATE`), and a nested
///   `write` on the writing thread runs in a savepoint of the outer transaction;
/// - readers never wait for the writer (WAL) and each `read` is one snapshot; a `read` on the
///   thread that holds the writer uses the writer, so it sees that thread's own changes;
/// - a blockade stops new operations from other threads; threads already holding a handle
///   may finish (they are what the blockade waits for);
/// - every wait is on one condition, signalled whenever a handle comes back or the
///   blockade changes;
/// - a reader may come back with its last point read left open (``Connection/leaveReadOpen(_:)``),
///   which keeps its WAL reader slot taken between reads; the reader's next statement ends
///   it (``Connection/endLingeringRead()``), and so do every write (at its start and its end,
///   so checkpoints are not held back), a checkpoint, a blockade and a sweep that ends those
///   idle for ``readLingerNanoseconds``.
final class DatabaseCore: @unchecked Sendable {
    // Safe because the variables below are read and written only inside `locked` (on `condition`)
    // (the contract above), except `pendingChanges`, which only the thread holding the
    // writer touches; the rest are constants or lock themselves.
    /// The canonical path of the SQLite file.
    let path: String
    private let migrator: SchemaMigrator
    private let condition = CoreCondition()

    // Everything below is guarded by `condition`. The lock is what keeps accesses exclusive,
    // so the variables skip Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`):
    // a read took about twenty of them, some 650 instructions of its path.
    @exclusivity(unchecked) private var storedTag: Int?
    @exclusivity(unchecked) private var storedOptions: Connection.Options
    @exclusivity(unchecked) private var writer: Connection?
    @exclusivity(unchecked) private var writerOwner: ThreadID?
    @exclusivity(unchecked) private var freeReaders: [Connection] = []
    @exclusivity(unchecked) private var readersOut = 0
    @exclusivity(unchecked) private var blockadeOwner: ThreadID?
    /// Handles held per thread: a few threads at most, so a short array searched in order
    /// costs less than hashing the thread's ID twice for every read.
    @exclusivity(unchecked) private var handlesHeld: [(thread: ThreadID, count: Int)] = []
    @exclusivity(unchecked) private var heldTotal = 0
    @exclusivity(unchecked) private var attachedObjects = 0
    @exclusivity(unchecked) private var schemaReady = false
    @exclusivity(unchecked) private var closeObservers: [ObjectIdentifier: @Sendable () -> Void] = [:]
    @exclusivity(unchecked) private var waiters = 0
    @exclusivity(unchecked) private var checkpointScheduled = false
    @exclusivity(unchecked) private var lingerSweepScheduled = false
    /// How long a free reader keeps a point read open (see ``Connection/leaveReadOpen(_:)``)
    /// before the sweep ends it: long enough to span the gaps between the reads of a busy
    /// thread, short enough that another process's checkpoint is not held back for long.
    @exclusivity(unchecked) private var lingerNanoseconds: UInt64 = 20_000_000
    /// Documents changed by the open write transaction; only the writing thread touches it.
    @exclusivity(unchecked) private var pendingChanges = ChangeLog()
    /// The listeners of this file.
    let changes = ChangeHub()
    /// The expiration scheduler of this file, once started.
    @exclusivity(unchecked) private(set) var housekeeper: Housekeeper?
    /// Run at the start of every outermost write transaction, on the writing thread: a seam
    /// for tests that need a write held open (see ``Database/setWriteTransactionHook(_:)``).
    let writeTransactionHook = Locked<(@Sendable () -> Void)?>(nil)

    /// Free readers kept for reuse; more are closed when they come back.
    let maximumFreeReaders = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Readers open at once; a further read waits for one to come back.
    let maximumReaders = 32

    init(path: String, migrator: SchemaMigrator, options: Connection.Options = Connection.Options()) {
        self.path = path
        self.migrator = migrator
        self.storedOptions = options
    }

    deinit {
        writer?.close()
        freeReaders.forEach { $0.close() }
    }

    // MARK: Properties shared by every Database object of this file

    var tag: Int? {
        get { locked { storedTag } }
        set { locked { storedTag = newValue } }
    }

    var options: Connection.Options {
        get { locked { storedOptions } }
        set { locked { storedOptions = newValue } }
    }

    /// True while the core holds at least one SQLite handle.
    var isOpened: Bool { locked { writer != nil || !freeReaders.isEmpty || readersOut > 0 } }

    var isBlockaded: Bool { locked { blockadeOwner != nil } }

    /// Handles open and idle (the writer when no one writes, plus free readers).
    var freeHandleCount: Int {
        locked { freeReaders.count + (writer != nil && writerOwner == nil ? 1 : 0) }
    }

    /// Handles open in total.
    var openHandleCount: Int { locked { freeReaders.count + readersOut + (writer != nil ? 1 : 0) } }

    /// Whether the calling thread holds a handle of this core (inside `read` or `write`).
    var callerHoldsHandle: Bool { locked { heldCount(currentThreadID()) > 0 } }

    /// Whether the calling thread is inside a `write` of this core.
    var callerIsWriting: Bool { locked { writerOwner == currentThreadID() } }

    /// Whether some thread holds the writer.
    var hasActiveWriter: Bool { locked { writerOwner != nil } }

    // MARK: Objects using the core

    func attach() { locked { attachedObjects += 1 } }

    /// How many open `Database` objects use the core.
    var attachedObjectCount: Int { locked { attachedObjects } }

    /// One object stopped using the core; the last one closes the handles.
    func detach() throws {
        let (last, keeper) = locked { () -> (Bool, Housekeeper?) in
            attachedObjects -= 1
            let last = attachedObjects <= 0
            let keeper = last ? housekeeper : nil
            if last { housekeeper = nil }
            return (last, keeper)
        }
        keeper?.stop()
        if last { try closeHandles(onClosed: {}) }
    }

    /// Registers a callback run (outside the lock) each time the handles are closed.
    func addCloseObserver(_ owner: ObjectIdentifier, _ observer: @escaping @Sendable () -> Void) {
        locked { closeObservers[owner] = observer }
    }

    func removeCloseObserver(_ owner: ObjectIdentifier) {
        locked { _ = closeObservers.removeValue(forKey: owner) }
    }

    // MARK: Opening

    /// Opens the writer (creating the file and migrating the schema) if it is not open.
    /// Runs with the lock held.
    private func openWriterLocked() throws {
        if writer != nil { return }
        let connection = try Connection(path: path, role: .writer, options: storedOptions)
        if !schemaReady {
            try migrator.migrate(connection)
            schemaReady = true
        }
        // After the migration: the hook takes the lock, which is held here.
        installCheckpointHook(on: connection)
        writer = connection
    }

    /// Opens the file now, if it can be opened; throws the reason otherwise.
    func open() throws {
        let me = currentThreadID()
        try locked {
            waitForPassage(me)
            if writerOwner == nil || writerOwner == me {
                try openWriterLocked()
            }
        }
    }

    // MARK: Access

    private func mayPass(_ me: ThreadID) -> Bool {
        blockadeOwner == nil || blockadeOwner == me || heldCount(me) > 0
    }

    private func waitForPassage(_ me: ThreadID) {
        while !mayPass(me) { waitForSignal() }
    }

    /// Waits on the condition (lock held), counted so tests can see who is waiting.
    private func waitForSignal() {
        waiters += 1
        condition.wait()
        waiters -= 1
    }

    /// Threads waiting for the blockade, the writer or a reader.
    var waitingCount: Int { locked { waiters } }

    /// The handles `thread` holds (lock held).
    private func heldCount(_ thread: ThreadID) -> Int {
        if heldTotal == 0 { return 0 }
        for entry in handlesHeld where entry.thread == thread { return entry.count }
        return 0
    }

    private func hold(_ me: ThreadID) {
        heldTotal += 1
        for index in handlesHeld.indices where handlesHeld[index].thread == me {
            handlesHeld[index].count += 1
            return
        }
        handlesHeld.append((me, 1))
    }

    private func release(_ me: ThreadID) {
        heldTotal -= 1
        for index in handlesHeld.indices where handlesHeld[index].thread == me {
            if handlesHeld[index].count > 1 {
                handlesHeld[index].count -= 1
            } else {
                handlesHeld.swapAt(index, handlesHeld.count - 1)
                handlesHeld.removeLast()
            }
            return
        }
    }

    /// Wakes the waiting threads, if any (lock held): every wait counts itself in `waiters`.
    private func wakeWaiters() {
        if waiters > 0 { condition.broadcast() }
    }

    /// Runs `body` with the writer inside one transaction.
    ///
    /// A nested call (on the thread that already writes) runs in a savepoint, so that its
    /// failure undoes only its own changes. A body that makes at most one change, in one SQL
    /// statement, passes `singleStatement`: SQLite already undoes a failed statement's partial
    /// work, and the savepoint (which copies every page it touches to a sub-journal) would
    /// cost more than the save itself in a batch.
    func write<T>(singleStatement: Bool = false, _ body: (Connection) throws -> T) throws -> T {
        let me = currentThreadID()
        let grant = try locked { () throws -> WriterGrant in
            if writerOwner == me, let writer { return .nested(writer) }
            return .owned(try takeWriterLocked(me))
        }
        let connection: Connection
        switch grant {
        case .nested(let writer):
            let mark = pendingChanges.count
            do {
                if singleStatement { return try body(writer) }
                return try writer.savepoint { try body(writer) }
            } catch {
                pendingChanges.truncate(to: mark)
                throw error
            }
        case .owned(let owned):
            connection = owned
        }
        defer { giveBackWriter(me) }
        do {
            let value = try connection.transaction {
                writeTransactionHook.withLock { $0 }?()
                return try body(connection)
            }
            let committed = pendingChanges
            pendingChanges = ChangeLog()
            // Published while this thread still holds the writer, so deliveries are queued in
            // commit order.
            changes.publish(committed)
            return value
        } catch {
            pendingChanges = ChangeLog()
            throw error
        }
    }

    /// Runs `body` with the writer outside any transaction, other writers kept waiting: for
    /// statements SQLite refuses inside one, such as `VACUUM`. Throws transactionNotClosed
    /// on a thread that is inside a write, whose transaction would be in the way.
    func writeOutsideTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        let me = currentThreadID()
        let connection = try locked {
            if writerOwner == me {
                throw QuireError(
                    .transactionNotClosed,
                    "cannot run this on \(path) from inside a write or batch: it needs the writer outside a transaction"
                )
            }
            return try takeWriterLocked(me)
        }
        defer { giveBackWriter(me) }
        return try body(connection)
    }

    /// Waits for the writer, opens it if needed and makes the calling thread its owner.
    /// Runs with the lock held.
    private func takeWriterLocked(_ me: ThreadID) throws -> Connection {
        while !mayPass(me) || writerOwner != nil { waitForSignal() }
        try openWriterLocked()
        endLingeringReadsLocked()
        guard let connection = writer else {
            throw QuireError(.unexpectedError, "the writer of \(path) is not open")
        }
        writerOwner = me
        hold(me)
        return connection
    }

    private func giveBackWriter(_ me: ThreadID) {
        locked {
            endLingeringReadsLocked()
            writerOwner = nil
            release(me)
            wakeWaiters()
        }
    }

    /// What ``write(singleStatement:_:)`` was given: the writer this thread already holds (a
    /// nested write), or the writer it now owns.
    private enum WriterGrant {
        case nested(Connection)
        case owned(Connection)
    }

    /// What ``read(singleStatement:_:)`` was given: the writer this thread holds (a read inside
    /// a write sees its own changes), or a reader slot with a pooled reader if one was free
    /// and the options to open one otherwise.
    private enum ReaderGrant {
        case writer(Connection)
        case reader(Connection?, Connection.Options)
    }

    /// Notes a document changed by the current write transaction (writer thread only), when a
    /// listener is registered to be told of it.
    func recordChange(collectionID: Int64, documentID: String) {
        guard changes.hasListeners else { return }
        pendingChanges.append(collectionID: collectionID, documentID: documentID)
    }

    /// Starts the expiration scheduler with `clock` (the first clock given wins), purging
    /// what expired while the database was closed.
    func startHousekeeping(clock: any QuireClock) {
        let created: Housekeeper? = locked {
            if housekeeper != nil { return nil }
            let created = Housekeeper(core: self, clock: clock)
            housekeeper = created
            return created
        }
        created?.start()
    }

    /// Runs `body` with a reader inside one read transaction (one snapshot).
    ///
    /// `singleStatement`: `body` runs one statement (stepped and reset before it returns), whose
    /// own implicit transaction is the snapshot, so no BEGIN and COMMIT are run around it.
    func read<T>(singleStatement: Bool = false, _ body: (Connection) throws -> T) throws -> T {
        let me = currentThreadID()
        let grant = try locked { () throws -> ReaderGrant in
            if writerOwner == me, let writer { return .writer(writer) }
            while !mayPass(me) || (freeReaders.isEmpty && readersOut >= maximumReaders) { waitForSignal() }
            if !schemaReady {
                // The first operation may be a read: the writer creates the file and its schema.
                guard writerOwner == nil else {
                    throw QuireError(.unexpectedError, "the schema of \(path) is being created by another thread")
                }
                try openWriterLocked()
            }
            let pooled = takeFreeReader(for: me)
            readersOut += 1
            hold(me)
            return .reader(pooled, storedOptions)
        }
        let pooled: Connection?
        let options: Connection.Options
        switch grant {
        case .writer(let writer): return try body(writer)
        case .reader(let reader, let readerOptions): (pooled, options) = (reader, readerOptions)
        }

        let reader: Connection
        do {
            reader = try pooled ?? Connection(path: path, role: .reader, options: options)
        } catch {
            giveBackUnopenedReader(thread: me)
            throw error
        }
        reader.lastUser = me
        defer { giveBack(reader, thread: me) }
        return try singleStatement ? body(reader) : reader.transaction { try body(reader) }
    }

    /// A free reader, preferring the one this thread used last (lock held): a reader's page
    /// cache and statements then stay warm in one CPU's caches instead of moving between
    /// threads at every read, which is what kept two reading threads from scaling.
    private func takeFreeReader(for thread: ThreadID) -> Connection? {
        if let index = freeReaders.lastIndex(where: { $0.lastUser == thread }) {
            return freeReaders.remove(at: index)
        }
        return freeReaders.popLast()
    }

    private func giveBack(_ reader: Connection, thread me: ThreadID) {
        let excess = locked { () -> Connection? in
            readersOut -= 1
            release(me)
            wakeWaiters()
            if freeReaders.count < maximumFreeReaders && schemaReady {
                if reader.hasLingeringRead {
                    reader.lingeringSince = DispatchTime.now().uptimeNanoseconds
                    scheduleLingerSweepLocked()
                }
                freeReaders.append(reader)
                return nil
            }
            return reader
        }
        excess?.close()
    }

    /// Gives back the reader slot of a reader that could not be opened.
    private func giveBackUnopenedReader(thread me: ThreadID) {
        locked {
            readersOut -= 1
            release(me)
            condition.broadcast()
        }
    }

    // MARK: Reads left open

    /// The time a free reader keeps a point read open before the sweep ends it (tests shorten
    /// or lengthen it to see both sides).
    var readLingerNanoseconds: UInt64 {
        get { locked { lingerNanoseconds } }
        set { locked { lingerNanoseconds = newValue } }
    }

    /// Whether some free reader still has a point read open.
    var hasLingeringReads: Bool { locked { freeReaders.contains { $0.hasLingeringRead } } }

    /// Ends the reads left open on free readers given back at or before `cutoff` (an uptime in
    /// nanoseconds; all of them by default), lock held, and says whether any is left open.
    /// Readers in use end theirs when they are next used, or the sweep does once they are back.
    @discardableResult
    private func endLingeringReadsLocked(givenBackBy cutoff: UInt64 = .max) -> Bool {
        var left = false
        for reader in freeReaders where reader.hasLingeringRead {
            if reader.lingeringSince <= cutoff {
                reader.endLingeringRead()
            } else {
                left = true
            }
        }
        return left
    }

    /// Schedules the sweep of idle open reads, unless it is already scheduled (lock held).
    private func scheduleLingerSweepLocked() {
        if lingerSweepScheduled { return }
        lingerSweepScheduled = true
        lingerQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: lingerNanoseconds))) { [weak self] in
            self?.sweepLingeringReads()
        }
    }

    /// Ends the open reads of free readers that have been idle for the linger time, and comes
    /// back later while any is left open.
    private func sweepLingeringReads() {
        locked {
            lingerSweepScheduled = false
            let now = DispatchTime.now().uptimeNanoseconds
            let cutoff = now > lingerNanoseconds ? now - lingerNanoseconds : 0
            if endLingeringReadsLocked(givenBackBy: cutoff) { scheduleLingerSweepLocked() }
        }
    }

    // MARK: Checkpoints off the writer's path

    /// WAL frames after which a commit asks for a checkpoint (SQLite's automatic default).
    static let checkpointThreshold: Int32 = 1000
    /// Runs checkpoints, one at a time.
    private let checkpointQueue = DispatchQueue(label: "quire.checkpoint", qos: .utility)
    /// Runs the sweep of reads left open.
    private let lingerQueue = DispatchQueue(label: "quire.read-linger", qos: .utility)

    /// Replaces SQLite's automatic checkpoint on the writer, which ran inside the COMMIT that
    /// crossed the threshold (copying pages and syncing two files while the writer waits),
    /// with one on a background queue, as WCDB does: a commit only notes that one is due.
    ///
    /// A checkpoint that runs while the writer goes on writing cannot let the next write start
    /// the WAL over, so under constant writing the WAL would only grow. Past four times the
    /// threshold (one very large commit, or checkpoints falling behind), the writer therefore
    /// checkpoints itself right after its commit, as SQLite would have, which keeps the WAL
    /// bounded. Both are passive: they never wait for readers.
    private func installCheckpointHook(on connection: Connection) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        // The writer is closed before the core goes away, so the hook never outlives it.
        sqlite3_wal_hook(
            connection.handle,
            { context, handle, name, frames in
                if frames >= DatabaseCore.checkpointThreshold * 4 {
                    sqlite3_wal_checkpoint_v2(handle, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                } else if let context, frames >= DatabaseCore.checkpointThreshold {
                    Unmanaged<DatabaseCore>.fromOpaque(context).takeUnretainedValue().scheduleCheckpoint()
                }
                return SQLITE_OK
            }, context)
    }

    /// Called by the writer after a commit that left the WAL over the threshold.
    private func scheduleCheckpoint() {
        let schedule: Bool = locked {
            if checkpointScheduled { return false }
            checkpointScheduled = true
            return true
        }
        guard schedule else { return }
        checkpointQueue.async { [self] in runCheckpoint() }
    }

    /// A passive checkpoint (it never waits for readers or the writer) through a pooled reader,
    /// which counts as a held handle: a blockade or close waits for it. Skipped while the file
    /// is blockaded or closed; the next commit over the threshold asks again.
    private func runCheckpoint() {
        let me = currentThreadID()
        let grant = locked { () -> ReaderGrant? in
            guard writer != nil, schemaReady, blockadeOwner == nil else {
                checkpointScheduled = false
                return nil
            }
            endLingeringReadsLocked()
            let pooled = takeFreeReader(for: me)
            readersOut += 1
            hold(me)
            return .reader(pooled, storedOptions)
        }
        guard case .reader(let pooled, let options) = grant else { return }

        if let reader = pooled ?? (try? Connection(path: path, role: .reader, options: options)) {
            sqlite3_wal_checkpoint_v2(reader.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            giveBack(reader, thread: me)
        } else {
            giveBackUnopenedReader(thread: me)
        }
        locked { checkpointScheduled = false }
    }

    // MARK: Blockade and close

    /// Stops new operations from other threads and waits for theirs to finish.
    func blockade() {
        let me = currentThreadID()
        locked {
            while blockadeOwner != nil && blockadeOwner != me { waitForSignal() }
            blockadeOwner = me
            while heldTotal - heldCount(me) > 0 { waitForSignal() }
            endLingeringReadsLocked()
        }
    }

    /// Lets operations through again.
    func unblockade() {
        locked {
            blockadeOwner = nil
            condition.broadcast()
        }
    }

    /// Blockades, waits for every handle to come back, closes them all, runs `onClosed`,
    /// and lifts the blockade it set. Later operations reopen lazily.
    func closeHandles(onClosed: () throws -> Void) throws {
        let me = currentThreadID()
        let (blockadedHere, toClose, observers) = try locked {
            if writerOwner == me {
                throw QuireError(
                    .transactionNotClosed,
                    "cannot close \(path) from inside a write or batch on it: the close would wait for its own transaction"
                )
            }
            if heldCount(me) > 0 {
                throw QuireError(
                    .busy,
                    "cannot close \(path) from a thread that holds one of its handles (inside a read): the close would wait for itself"
                )
            }
            let blockadedHere = blockadeOwner != me
            if blockadedHere {
                while blockadeOwner != nil { waitForSignal() }
                blockadeOwner = me
            }
            while heldTotal > 0 { waitForSignal() }
            let toClose = freeReaders + (writer.map { [$0] } ?? [])
            freeReaders.removeAll()
            writer = nil
            schemaReady = false
            return (blockadedHere, toClose, Array(closeObservers.values))
        }

        toClose.forEach { $0.close() }
        observers.forEach { $0() }
        defer {
            if blockadedHere { unblockade() }
        }
        try onClosed()
    }

    /// Closes idle handles; later operations open new ones.
    func purgeFreeHandles() {
        let toClose = locked { () -> [Connection] in
            var toClose = freeReaders
            freeReaders.removeAll()
            if let writer, writerOwner == nil {
                toClose.append(writer)
                self.writer = nil
            }
            return toClose
        }
        toClose.forEach { $0.close() }
    }

    /// Runs `body` with the lock held: the only way this type takes it, so no path can leave
    /// it held (a wait inside `body` releases and retakes it).
    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        try condition.withLock(body)
    }
}
