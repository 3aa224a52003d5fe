#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value that threads share, reachable only inside ``withLock(_:)``: the one lock type of
/// Quire's modules, in place of a lock field paired by hand with the fields it guards.
///
/// `Synchronization.Mutex` does this from macOS 15; the package supports macOS 13, so this
/// small type sits on a pthread mutex instead, and its own name keeps it apart from `Mutex`
/// in files that import `Synchronization`. The value and the mutex share one allocation
/// (documents carry one). Copies of a `Locked` share the value and the lock.
///
/// The lock is not recursive: `body` must not call ``withLock(_:)`` on the same value again,
/// and should neither block nor call out to code that may take other locks.
///
/// ```swift
/// private let state = Locked(State())
/// let count = state.withLock { state in state.count += 1; return state.count }
/// ```
package struct Locked<Value> {
    private let storage: Storage

    /// A lock guarding `value`.
    package init(_ value: Value) {
        storage = Storage.make(value)
    }

    /// Runs `body` with exclusive access to the value; what `body` returns or throws is
    /// passed on.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        let value = storage.withUnsafeMutablePointerToHeader { $0 }
        return try storage.withMutex { try body(&value.pointee) }
    }

    /// The value, with the mutex behind it in the same allocation.
    private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        static func make(_ value: Value) -> Storage {
            let buffer = Storage.create(minimumCapacity: 1) { _ in value }
            buffer.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                pthread_mutex_init(mutex, nil)
            }
            // `create` returns a ManagedBuffer typed as the class it was called on.
            return unsafeDowncast(buffer, to: Storage.self)
        }

        /// Runs `body` holding the mutex, without touching the value. A `Void` value is never
        /// reached at all: an empty value's address is the header's, which taking the header's
        /// pointer reads before locking, so ThreadSanitizer saw that read race with another
        /// thread's access to the value inside the lock.
        @inline(__always)
        func withMutex<Result>(_ body: () throws -> Result) rethrows -> Result {
            let mutex = withUnsafeMutablePointerToElements { $0 }
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body()
        }

        deinit {
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                _ = mutex.deinitialize(count: 1)
            }
        }
    }
}

extension Locked where Value == Void {
    /// A lock that guards no value of its own, for serialising an action (writes to a
    /// shared file handle).
    package init() {
        self.init(())
    }

    /// Runs `body` while holding the lock.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try storage.withMutex(body)
    }
}

// Safe because the value is only reached inside `withLock`, under the mutex, and is itself
// Sendable, so what a body hands out may cross threads.
extension Locked: @unchecked Sendable where Value: Sendable {}
