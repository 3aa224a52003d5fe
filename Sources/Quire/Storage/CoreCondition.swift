#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutex with a condition variable, for the short critical sections of the database core.
///
/// On Linux the mutex is adaptive: a thread that finds it held spins briefly before going to
/// sleep. The sections it guards last nanoseconds, while a thread put to sleep can take
/// hundreds of microseconds to be woken on a busy or virtual machine; with `NSCondition`,
/// two threads reading the same database lost much of their second core that way.
///
/// It is not ``Locked``, whose lock cannot be waited on: the core's threads wait for the
/// writer, a reader or the end of a blockade under the same lock that guards those.
final class CoreCondition: @unchecked Sendable {
    // Safe because the pthread objects are only used through their own locking functions.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Waits for a broadcast, inside ``withLock(_:)``; may also return spuriously, so callers loop.
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes every waiter.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Runs `body` with the lock held, the only way to take it: no path leaves it held.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
