import ArgumentParser
import UnixSignals

extension AsyncParsableCommand {
    /// Runs `body` until it ends or SIGINT or SIGTERM arrives, which cancels it; returns what
    /// `body` returns, or throws what it throws (`CancellationError` when a signal stopped it
    /// before it had anything to return). The one way the long-running commands (`serve`,
    /// `testserver`, `fixture install`) end on Ctrl-C or a service manager's stop: a server
    /// starts in `body`, waits with `waitUntilCancelled()` and stops itself.
    func cancellingOnSignal<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                for await _ in signals { return nil }
                return nil
            }
            while let next = try await group.next() {
                // The body's result ends the run; a signal cancels the body, whose outcome
                // then comes as the next result.
                group.cancelAll()
                if let value = next { return value }
            }
            throw CancellationError()
        }
    }

    /// Waits until the task is cancelled (a server's run after it has started).
    static func waitUntilCancelled() async {
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 3_600_000_000_000)
        }
    }
}
