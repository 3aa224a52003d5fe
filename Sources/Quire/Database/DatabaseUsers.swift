import Foundation

/// The listeners and replicators working on one ``Database`` object, each with a way to stop
/// it: closing or deleting the object stops them, as Couchbase Lite's `Database.close()`
/// stops the replicators and listeners on it (its testCloseWithActiveListener,
/// testCloseWithActiveReplicatorAndURLEndpointListeners).
package final class DatabaseUsers: Sendable {
    private let state = Locked((stops: [UUID: @Sendable () -> Void](), closed: false))

    /// Adds `stop`, called once when the database object closes or is deleted; the ID that
    /// removes it, or nil (and `stop` is not kept) when the object is closed already.
    package func add(_ stop: @escaping @Sendable () -> Void) -> UUID? {
        state.withLock { state in
            guard !state.closed else { return nil }
            let id = UUID()
            state.stops[id] = stop
            return id
        }
    }

    /// Forgets the stop added as `id` (its user stopped by itself).
    package func remove(_ id: UUID) {
        _ = state.withLock { $0.stops.removeValue(forKey: id) }
    }

    /// Calls every stop, outside the lock, and refuses later ones.
    func stopAll() {
        let stops = state.withLock { state in
            state.closed = true
            defer { state.stops = [:] }
            return Array(state.stops.values)
        }
        for stop in stops { stop() }
    }
}
