import Foundation
import Quire

/// Where the listener runs database work: on threads of its own, as GRDB's async API runs a
/// `DatabasePool`'s work on its reader and writer queues, never on the cooperative threads
/// that run the listener's request handlers.
///
/// Quire's storage API is synchronous and blocks: a write waits for the file's one writer,
/// a `_bulk_docs` holds it for a whole batch. On a cooperative thread such a wait takes a
/// thread from every other request; with two cores, two slow writes would leave `GET /`
/// unanswered until they end. Handlers hand their database work here and stay suspended
/// meanwhile.
///
/// Reads and writes have threads of their own, so writes waiting for a busy writer never
/// leave reads without a thread: a file has one writer, so more write threads than a few
/// would only wait, while readers read in parallel (WAL) up to the store's reader limit.
struct DatabaseWork: Sendable {
    /// Threads for requests that only read.
    let readers: WorkerThreads
    /// Threads for requests that change documents.
    let writers: WorkerThreads

    /// Threads for reads: twice the cores (reads also wait on disk), at least 4, at most 16.
    static let defaultReaderLimit = min(16, max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))
    /// Threads for writes: enough that writes to different served databases go on in
    /// parallel, at least 2, at most 4.
    static let defaultWriterLimit = min(4, max(2, ProcessInfo.processInfo.activeProcessorCount))

    init(readerLimit: Int = DatabaseWork.defaultReaderLimit, writerLimit: Int = DatabaseWork.defaultWriterLimit) {
        readers = WorkerThreads(name: "quire.listener.read", limit: readerLimit)
        writers = WorkerThreads(name: "quire.listener.write", limit: writerLimit)
    }

    /// Runs `work`, which only reads, on a reader thread.
    func read<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await readers.run(work)
    }

    /// Runs `work`, which writes, on a writer thread.
    func write<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await writers.run(work)
    }

    /// Runs `work` on a writer thread when `writing`, on a reader thread otherwise.
    func run<T: Sendable>(writing: Bool, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        writing ? try await write(work) : try await read(work)
    }

    /// Lets queued work finish and the threads end; called once the server has stopped.
    func shutdown() {
        readers.shutdown()
        writers.shutdown()
    }
}
