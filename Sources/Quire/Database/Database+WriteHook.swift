extension Database {
    /// Sets a function run at the start of every outermost write transaction of this file
    /// (a save, a batch, `_bulk_docs`), on the writing thread, while it holds the writer; nil
    /// removes it. Tests use it to hold a write open until they release it.
    package func setWriteTransactionHook(_ hook: (@Sendable () -> Void)?) {
        core.writeTransactionHook.withLock { $0 = hook }
    }
}
