import Foundation

/// Where async code runs store work: on threads of its own, as GRDB's async API runs a
/// `DatabasePool`'s work on its reader and writer queues, never on Swift concurrency's
/// cooperative threads (see <doc:HandlesAndThreads>).
///
/// Quire's storage API is synchronous and blocks: a write waits for the file's one writer,
/// a `_bulk_docs` or a replicated batch holds it for a while. On a cooperative thread such a
/// wait takes a thread from every other task of the process; with two cores, two slow writes
/// would leave the listener's `GET /` unanswered and every replication stalled until they
/// end. Async code hands its store work here and stays suspended meanwhile.
///
/// The listener has an instance of its own, shut down with the server; replicators and the
/// test server use ``shared``.
///
/// Reads and writes have threads of their own, so writes waiting for a busy writer never
/// leave reads without a thread: a file has one writer, so more write threads than a few
/// would only wait, while readers read in parallel (WAL) up to the store's reader limit.
package struct DatabaseWork: Sendable {
    /// Threads for requests that only read.
    package let readers: WorkerThreads
    /// Threads for requests that change documents.
    package let writers: WorkerThreads

    /// Threads for reads: twice the cores (reads also wait on disk), at least 4, at most 16.
    package static let defaultReaderLimit = min(16, max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))
    /// Threads for writes: enough that writes to different served databases go on in
    /// parallel, at least 2, at most 4.
    package static let defaultWriterLimit = min(4, max(2, ProcessInfo.processInfo.activeProcessorCount))

    package init(
        name: String = "quire.listener", readerLimit: Int = DatabaseWork.defaultReaderLimit,
        writerLimit: Int = DatabaseWork.defaultWriterLimit
    ) {
        readers = WorkerThreads(name: "\(name).read", limit: readerLimit)
        writers = WorkerThreads(name: "\(name).write", limit: writerLimit)
    }

    /// The threads every replicator and the test server run their store work on, for the
    /// whole process. Writes get more threads than the listener's: they serve every database
    /// the process replicates, and a write held open on one file must not keep a replication
    /// of another file waiting for a thread.
    package static let shared = DatabaseWork(name: "quire.store", writerLimit: 16)

    /// Runs `work`, which only reads, on a reader thread.
    package func read<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await readers.run(work)
    }

    /// Runs `work`, which writes, on a writer thread.
    package func write<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await writers.run(work)
    }

    /// Runs `work` on a writer thread when `writing`, on a reader thread otherwise.
    package func run<T: Sendable>(writing: Bool, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        writing ? try await write(work) : try await read(work)
    }

    /// Lets queued work finish and the threads end; called once the server has stopped.
    package func shutdown() {
        readers.shutdown()
        writers.shutdown()
    }
}
