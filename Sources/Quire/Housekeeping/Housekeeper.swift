import Foundation

/// Purges expired documents of one file.
///
/// It keeps one timer armed for the earliest expiration of any collection (found with each
/// table's partial index on `expiration`, not by scanning), re-arms after every change of
/// expirations and after each purge, and purges at once what is already due when started.
/// Purges are plain deletes (no tombstone, never replicated) and are reported to change
/// listeners like any other change.
final class Housekeeper: @unchecked Sendable {
    // Safe because the timer state is behind its lock and `core` is a weak reference set
    // once, at init (weak references are read atomically).
    private weak var core: DatabaseCore?
    let clock: any QuireClock
    private struct State {
        var timer: (any ClockTimer)?
        var armedFor: Int64?
        var stopped = false
    }

    private let state = Locked(State())

    init(core: DatabaseCore, clock: any QuireClock) {
        self.core = core
        self.clock = clock
    }

    /// The current time in milliseconds since the epoch.
    var nowMilliseconds: Int64 { EpochMilliseconds.of(clock.now) }

    /// Purges what is due and arms the timer.
    func start() {
        purgeExpired()
    }

    /// Cancels the timer; nothing runs afterwards.
    func stop() {
        let pending = state.withLock { state in
            state.stopped = true
            defer { state.timer = nil }
            return state.timer
        }
        pending?.cancel()
    }

    /// Re-reads the earliest expiration and arms the timer for it.
    func rearm() {
        guard let core, !state.withLock({ state in state.stopped }) else { return }
        let next = try? core.read { connection in try Housekeeper.earliestExpiration(connection) }
        arm(for: next ?? nil)
    }

    /// Re-arms from inside a write transaction (which already has the connection).
    func rearm(using connection: Connection) {
        let next = try? Housekeeper.earliestExpiration(connection)
        arm(for: next ?? nil)
    }

    private func arm(for milliseconds: Int64?) {
        let previous: (any ClockTimer)? = state.withLock { state in
            guard !state.stopped, state.armedFor != milliseconds else { return nil }
            let old = state.timer
            state.timer = nil
            state.armedFor = milliseconds
            if let milliseconds {
                let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
                state.timer = clock.schedule(at: date) { [weak self] in self?.fire(for: milliseconds) }
            }
            return old
        }
        previous?.cancel()
    }

    private func fire(for milliseconds: Int64) {
        state.withLock { state in
            if state.armedFor == milliseconds {
                state.armedFor = nil
                state.timer = nil
            }
        }
        purgeExpired()
    }

    /// Deletes every document whose expiration has passed, in one transaction, then re-arms.
    ///
    /// When nothing is due (every opening of a database without expired documents), it only
    /// re-arms: no write transaction is started, so opening a database writes nothing.
    func purgeExpired() {
        guard let core, !state.withLock({ state in state.stopped }) else { return }
        let now = nowMilliseconds
        // A failed read (a closed database) goes on to the write, which fails the same way.
        let found = Result { try core.read { connection in try Housekeeper.earliestExpiration(connection) } }
        if case .success(let earliest) = found, earliest.map({ $0 > now }) ?? true {
            state.withLock { state in state.armedFor = nil }
            arm(for: earliest)
            return
        }
        do {
            try core.write { connection in
                for id in try Housekeeper.collectionIDs(connection) {
                    let table = StoreSchema.tableName(id)
                    // Only a collection with something due raises its sequence floor: an
                    // unchanged row is still a page written.
                    guard try connection.scalarInt(Housekeeper.firstDueSQL(collection: id), [.integer(now)]) != nil
                    else { continue }
                    try connection.keepSequence(collectionID: id, table: table)
                    let expired = try connection.query(
                        "DELETE FROM \(table) WHERE expiration IS NOT NULL AND expiration <= ? RETURNING key",
                        [.integer(now)]
                    ) { $0.text(at: 0) ?? "" }
                    for documentID in expired {
                        try connection.run(
                            "DELETE FROM quire_leaves WHERE collection_id = ? AND key = ?",
                            [.integer(id), .text(documentID)])
                        core.recordChange(collectionID: id, documentID: documentID)
                    }
                    if !expired.isEmpty {
                        try connection.run(
                            "UPDATE quire_collections SET purge_count = purge_count + ? WHERE id = ?",
                            [.integer(Int64(expired.count)), .integer(id)])
                    }
                }
            }
        } catch {
            // A closed or busy database retries at the next change or opening; the documents
            // stay expired and hidden from nothing, so nothing is lost by waiting.
        }
        state.withLock { state in state.armedFor = nil }
        rearm()
    }

    static func collectionIDs(_ connection: Connection) throws -> [Int64] {
        try connection.query("SELECT id FROM quire_collections ORDER BY id") { $0.int64(at: 0) }
    }

    /// The statement that finds a collection's next expiration. The condition matches the
    /// partial index on `expiration`, so SQLite reads the index's first entry instead of
    /// walking the whole table.
    static func earliestExpirationSQL(collection id: Int64) -> String {
        "SELECT min(expiration) FROM \(StoreSchema.tableName(id)) WHERE expiration IS NOT NULL"
    }

    /// The statement that finds whether a collection has a document due at `?1`, through the
    /// same partial index.
    static func firstDueSQL(collection id: Int64) -> String {
        "SELECT 1 FROM \(StoreSchema.tableName(id)) WHERE expiration IS NOT NULL AND expiration <= ?1 LIMIT 1"
    }

    static func earliestExpiration(_ connection: Connection) throws -> Int64? {
        var earliest: Int64?
        for id in try collectionIDs(connection) {
            if let value = try connection.scalarInt(earliestExpirationSQL(collection: id)) {
                earliest = min(earliest ?? value, value)
            }
        }
        return earliest
    }
}
