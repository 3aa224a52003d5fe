import Foundation
import Quire

/// Hands the bound port, or the reason the server could not start, from the server task to
/// the caller of ``URLEndpointListener/start()``, exactly once.
final class StartupSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<UInt16, QuireError>?
    private var waiter: CheckedContinuation<UInt16, any Error>?

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
            let settled: Result<UInt16, QuireError>? = lock.withLock {
                if result == nil { waiter = continuation }
                return result
            }
            if let settled { continuation.resume(with: settled) }
        }
    }

    private func settle(_ outcome: Result<UInt16, QuireError>) {
        let waiter: CheckedContinuation<UInt16, any Error>? = lock.withLock {
            guard result == nil else { return nil }
            result = outcome
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?.resume(with: outcome.mapError { $0 as any Error })
    }
}
