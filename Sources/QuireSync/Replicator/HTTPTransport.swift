import Foundation
import Quire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends HTTP requests through one `URLSession`, with two guards a replicator needs against
/// its peer: a response larger than ``maximumResponseBytes`` is cut off with an error rather
/// than buffered, and a cancelled Swift task cancels its request.
///
/// The session keeps connections alive between requests (HTTP/1.1 keep-alive; libcurl's
/// connection cache on Linux). A server may close a kept connection just as the next request
/// goes out on it; an idempotent request (GET, HEAD, PUT, DELETE, OPTIONS) that fails that
/// way, before any response, is sent once more, on a fresh connection.
///
/// Transport failures become ``QuireError``s in the network domain; whether one is worth a
/// retry is ``isTransient(_:)``. With a ``LoopbackRoute`` (HTTPS with Quire's own
/// certificate checks), requests go to a loopback forwarder, messages still name the remote,
/// and a TLS failure the forwarder recorded is the request's error.
final class HTTPTransport: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Safe because the session, the exchanges and every field of an exchange are reached
    // only under `state`'s lock (an exchange leaves the table before it is read outside);
    // NSObject subclasses cannot be checked Sendable.
    private final class Exchange {
        var data = Data()
        var response: HTTPURLResponse?
        var continuation: CheckedContinuation<RemoteResponse, Error>?
        var failure: QuireError?
    }

    /// The largest response body accepted.
    let maximumResponseBytes: Int
    /// Where requests really go, when not straight to their URL.
    let route: LoopbackRoute?
    private struct State {
        var exchanges: [Int: Exchange] = [:]
        var session: URLSession?
        var invalidated = false
    }

    private let state = Locked(State())

    /// Told the size of each request body as it is sent and of each piece of a response body
    /// as it arrives.
    private let countBytes: (@Sendable (Int64) -> Void)?

    init(
        requestTimeout: TimeInterval, maximumResponseBytes: Int, route: LoopbackRoute? = nil,
        countBytes: (@Sendable (Int64) -> Void)? = nil
    ) {
        self.maximumResponseBytes = maximumResponseBytes
        self.countBytes = countBytes
        self.route = route
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        state.withLock { $0.session = session }
    }

    /// Sends `request` and collects the whole response; an idempotent request whose kept
    /// connection was closed under it is retried once.
    func send(_ request: URLRequest) async throws -> RemoteResponse {
        let exchange = "\(request.httpMethod ?? "GET") \(HTTPTransport.loggable(request.url))"
        do {
            let response = try await sendOnce(request)
            Log.write(.network, .verbose, "\(exchange): \(response.status)")
            return response
        } catch let failure as ConnectionLost {
            guard HTTPTransport.isIdempotent(request) else {
                Log.write(.network, .info, "\(exchange): \(failure.error)")
                throw failure.error
            }
            Log.write(.network, .verbose, "\(exchange): the kept connection was closed; sending it again")
            do {
                let response = try await sendOnce(request)
                Log.write(.network, .verbose, "\(exchange): \(response.status)")
                return response
            } catch let again as ConnectionLost {
                Log.write(.network, .info, "\(exchange): \(again.error)")
                throw again.error
            }
        } catch {
            Log.write(.network, .info, "\(exchange): \(error)")
            throw error
        }
    }

    /// `url` as a log shows it: without user name, password or query (which may hold secrets).
    static func loggable(_ url: URL?) -> String {
        guard let url, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "?" }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        return parts.string ?? "?"
    }

    /// Whether sending `request` twice has the effect of sending it once.
    static func isIdempotent(_ request: URLRequest) -> Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains((request.httpMethod ?? "GET").uppercased())
    }

    /// A request that failed because its connection went away before any response came:
    /// the mark of a kept connection the server closed. `error` is the mapped failure.
    private struct ConnectionLost: Error {
        let error: Error
    }

    private func sendOnce(_ request: URLRequest) async throws -> RemoteResponse {
        let exchange = Exchange()
        let taskBox = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RemoteResponse, Error>) in
                let task: URLSessionDataTask? = state.withLock { state in
                    guard !state.invalidated, let session = state.session else { return nil }
                    let task = session.dataTask(with: route?.toLoopback(request) ?? request)
                    exchange.continuation = continuation
                    state.exchanges[task.taskIdentifier] = exchange
                    return task
                }
                guard let task else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                if let body = request.httpBody { countBytes?(Int64(body.count)) }
                task.resume()
                taskBox.set(task)
            }
        } onCancel: {
            taskBox.cancel()
        }
    }

    /// Cancels every request and releases the session; later sends fail as cancelled.
    func invalidate() {
        let session = state.withLock { state in
            state.invalidated = true
            defer { state.session = nil }
            return state.session
        }
        session?.invalidateAndCancel()
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { $0.exchanges[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    // Credentials go in headers, so a challenge (a 401 with WWW-Authenticate) means they
    // were refused or missing. Foundation on Linux waits forever after default handling, so
    // the challenge is cancelled and the exchange fails with the 401 it stands for.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let target = remoteURL(task)?.absoluteString ?? "the remote"
        let sent = task.originalRequest?.value(forHTTPHeaderField: "Authorization") != nil
        state.withLock { state in
            state.exchanges[task.taskIdentifier]?.failure = QuireError(
                .httpAuthRequired,
                sent ? "\(target) refused the credentials (HTTP 401)" : "\(target) needs credentials (HTTP 401)",
                domain: .network, underlyingCode: 401)
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow: Bool = state.withLock { state in
            guard let exchange = state.exchanges[dataTask.taskIdentifier], exchange.failure == nil else { return false }
            if exchange.data.count + data.count > maximumResponseBytes {
                exchange.failure = QuireError(
                    .remoteError,
                    "the response to \(dataTask.originalRequest?.httpMethod ?? "GET") \(remoteURL(dataTask)?.absoluteString ?? "?") exceeds \(maximumResponseBytes) bytes"
                )
                exchange.data = Data()
                return true
            }
            exchange.data.append(data)
            return false
        }
        if overflow { dataTask.cancel() } else { countBytes?(Int64(data.count)) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let exchange = state.withLock({ $0.exchanges.removeValue(forKey: task.taskIdentifier) }),
            let continuation = exchange.continuation
        else { return }
        if let failure = exchange.failure {
            continuation.resume(throwing: failure)
        } else if error != nil, let routeFailure = route?.takeFailure() {
            // The forwarder's own account (a certificate refused, the remote unreachable),
            // not the lost loopback connection it caused; never retried as a lost connection.
            continuation.resume(throwing: routeFailure)
        } else if let error {
            let mapped = HTTPTransport.map(error, url: remoteURL(task))
            if exchange.response == nil, HTTPTransport.isConnectionLoss(error) {
                continuation.resume(throwing: ConnectionLost(error: mapped))
            } else {
                continuation.resume(throwing: mapped)
            }
        } else if let response = exchange.response {
            var headers: [String: String] = [:]
            for (key, value) in response.allHeaderFields {
                if let key = key as? String, let value = value as? String { headers[key] = value }
            }
            continuation.resume(
                returning: RemoteResponse(status: response.statusCode, headers: headers, body: exchange.data))
        } else {
            continuation.resume(
                throwing: QuireError(
                    .networkError, "no HTTP response from \(remoteURL(task)?.absoluteString ?? "?")",
                    domain: .network))
        }
    }

    /// The URL `task` was sent to, as the remote's (not the loopback forwarder's).
    private func remoteURL(_ task: URLSessionTask) -> URL? {
        let url = task.originalRequest?.url
        return route?.toRemote(url) ?? url
    }

    // MARK: Errors

    /// Whether `error` says the connection closed or reset with no response: what a request
    /// sent on a kept connection the server had just closed meets.
    static func isConnectionLoss(_ error: Error) -> Bool {
        guard let urlError = error as? URLError else { return false }
        return [.networkConnectionLost, .badServerResponse, .zeroByteResource, .cannotParseResponse].contains(
            urlError.code)
    }

    static func map(_ error: Error, url: URL?) -> Error {
        let target = url?.absoluteString ?? "the remote"
        guard let urlError = error as? URLError else {
            return QuireError(
                .networkError, "request to \(target) failed: \(error.localizedDescription)", domain: .network)
        }
        switch urlError.code {
        case .cancelled:
            return CancellationError()
        case .timedOut:
            return QuireError(.timeout, "request to \(target) timed out", domain: .network)
        case .cannotFindHost:
            return QuireError(.unknownHost, "cannot find host of \(target)", domain: .network)
        case .dnsLookupFailed:
            return QuireError(.dnsFailure, "DNS lookup failed for \(target)", domain: .network)
        case .badURL, .unsupportedURL:
            return QuireError(.invalidURL, "cannot send a request to \(target): invalid URL", domain: .network)
        default:
            return QuireError(
                .networkError,
                "request to \(target) failed: \(urlError.localizedDescription) (URLError \(urlError.code.rawValue))",
                domain: .network)
        }
    }

    /// Whether `error` may go away by itself (the peer is unreachable, slow or briefly
    /// overloaded), so the replicator goes offline and retries.
    static func isTransient(_ error: Error) -> Bool {
        guard let error = error as? QuireError else { return false }
        switch error.code {
        case .networkError, .timeout, .unknownHost, .dnsFailure: return error.domain == .network
        case .httpServiceUnavailable, .httpInternalServerError: return true
        default:
            // 408, 429 and 5xx other than 501 may pass; other HTTP statuses will not.
            if let status = error.underlyingCode, error.domain == .network {
                return status == 408 || status == 429 || (status >= 500 && status != 501)
            }
            return false
        }
    }
}

/// The data task of one request, or the fact that it was cancelled before it existed.
private final class TaskBox: @unchecked Sendable {
    // Safe because the task and the flag are reached only under `state`'s lock, and
    // URLSessionTask, not marked Sendable on every platform, may be cancelled from any thread.
    private let state = Locked((task: URLSessionDataTask?.none, cancelled: false))

    /// Records the running task, and cancels it when cancellation came first.
    func set(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
