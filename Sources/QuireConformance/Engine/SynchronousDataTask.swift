import Foundation
import Quire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One URLSession data task waited for from a runner thread: the body and status code, the
/// task's error, or nil when no answer came within `guardTimeout` (the task times out by
/// itself; that wait only guards against one that never ends).
enum SynchronousDataTask {
    static func run(
        _ request: URLRequest, in session: URLSession, guardTimeout: TimeInterval
    ) -> Result<(Data, Int), any Error>? {
        let outcome = Locked<Result<(Data, Int), any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { data, response, error in
            let result: Result<(Data, Int), any Error> =
                error.map { .failure($0) }
                ?? .success((data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
            outcome.withLock { $0 = result }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + guardTimeout) == .success else { return nil }
        return outcome.withLock { $0 }
    }
}
