import Foundation
import Quire
import QuireSync

/// Hands the bound port, or the reason the server could not start, from the server task to
/// the caller of ``URLEndpointListener/start()``, exactly once.
final class StartupSignal: Sendable {
    private struct State {
        var result: Result<UInt16, QuireError>?
        var waiter: CheckedContinuation<UInt16, any Error>?
    }

    private let state = Locked(State())

    /// The server is listening on `port`.
    func succeed(port: UInt16) {
        settle(.success(port))
    }

    /// The server could not start (or ended before starting).
    func fail(_ error: QuireError) {
        settle(.failure(error))
    }

    /// The port, once the server listens; throws when it could not start.
    func value() async throws -> UInt16 {
        try await withCheckedThrowingContinuation { continuation in
            let settled: Result<UInt16, QuireError>? = state.withLock { state in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let settled { continuation.resume(with: settled) }
        }
    }

    private func settle(_ outcome: Result<UInt16, QuireError>) {
        let waiter: CheckedContinuation<UInt16, any Error>? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: outcome.mapError { $0 as any Error })
    }
}
