import Foundation

/// Runs `body` on a thread of its own (8 MiB of stack, as the runner's workers) and returns
/// its result. Runner work that waits for async work (a listener, a live query) must not
/// block one of Swift concurrency's few threads, or it starves the very tasks it waits for.
func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
