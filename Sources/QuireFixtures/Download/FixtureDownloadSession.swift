import Foundation
import Quire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The requests of one ``FixtureDownload``: a `URLSession` whose delegate streams each
/// response body into the download file, and the loop that resumes a broken transfer with a
/// `Range` request.
///
/// Delegate calls arrive one at a time on the session's serial queue; the state they share
/// with ``run()`` and with cancellation is in `state`.
final class FixtureDownloadSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Safe because every mutable member is in `state`, reached only under its lock; the rest
    // are constants (the file handle is written only under that lock too).
    /// A transfer that broke after its request went out (the connection dropped, reset or
    /// went quiet): worth resuming when bytes arrived. `error` is what the download throws
    /// when it is not resumed.
    private struct Interruption: Error {
        let error: QuireError
    }

    /// A request that failed before the server sent any of the file, in a way that passes
    /// (the server is restarting: a refused connection, 429, 500, 502, 503, 504): tried again
    /// after a wait. `error` is what the download throws when the tries run out.
    private struct Transient: Error {
        let error: QuireError
    }

    /// The server cannot serve the range asked for (416) the bytes kept from an earlier run:
    /// the file changed or shrank, so the download starts over.
    private struct Restart: Error {}

    private let download: FixtureDownload
    private let handle: FileHandle
    private let progress: (@Sendable (FixtureDownloadProgress) -> Void)?
    /// Told the validator of each first response, so a later run can resume the file.
    private let validatorChanged: (@Sendable (String?) -> Void)?
    private let state: Locked<State>

    /// What the delegate calls, ``run()`` and cancellation share.
    private struct State {
        var session: URLSession?
        /// Bytes in the file.
        var received: Int64 = 0
        /// The archive's size as the server gave it.
        var total: Int64?
        /// The `If-Range` value for resumed requests: a strong ETag or a Last-Modified date.
        var validator: String?
        var resumes = 0
        var retries = 0
        /// Bytes the current request delivered.
        var attemptBytes: Int64 = 0
        /// Why the current request was stopped, when it was stopped on purpose.
        var failure: (any Error)?
        var continuation: CheckedContinuation<Void, any Error>?
        var task: URLSessionDataTask?
        var cancelled = false
    }

    /// A session writing `download` through `handle`, whose file already holds `kept` bytes of
    /// it from an earlier run (sent as `Range` with `validator` as `If-Range`).
    init(
        download: FixtureDownload, handle: FileHandle, kept: Int64 = 0, validator: String? = nil,
        validatorChanged: (@Sendable (String?) -> Void)? = nil,
        progress: (@Sendable (FixtureDownloadProgress) -> Void)?
    ) {
        self.download = download
        self.handle = handle
        self.progress = progress
        self.validatorChanged = validatorChanged
        state = Locked(State(received: kept, validator: validator))
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = download.timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        state.withLock { $0.session = session }
    }

    /// Downloads the whole archive, resuming up to ``FixtureDownload/maximumResumes`` times;
    /// returns the number of bytes written. The session is invalidated when it returns.
    func run() async throws -> Int64 {
        defer { state.withLock { $0.session }?.invalidateAndCancel() }
        return try await withTaskCancellationHandler {
            while true {
                try Task.checkCancellation()
                do {
                    try await attempt()
                    let (received, total) = state.withLock { ($0.received, $0.total) }
                    if let total, received < total {
                        // Some stacks end a body cut short by the server without an error.
                        throw Interruption(
                            error: QuireError(
                                .networkError,
                                "the transfer of \(download.url.absoluteString) ended after \(received) of \(total) bytes",
                                domain: .network))
                    }
                    return received
                } catch let interruption as Interruption {
                    let resumable = state.withLock { state -> Bool in
                        guard state.attemptBytes > 0, state.resumes < download.maximumResumes else { return false }
                        state.resumes += 1
                        return true
                    }
                    guard resumable else { throw interruption.error }
                } catch let transient as Transient {
                    // Waits of 0.5, 1, 2, 4 … s, at most 8 s, between tries.
                    let wait = state.withLock { state -> Double? in
                        guard state.retries < download.maximumRetries else { return nil }
                        state.retries += 1
                        return min(8, download.firstRetryWait * Double(1 << min(state.retries - 1, 16)))
                    }
                    guard let wait else { throw transient.error }
                    try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
                } catch is Restart {
                    try state.withLock { state in
                        try handle.truncate(atOffset: 0)
                        state.received = 0
                        state.validator = nil
                    }
                }
            }
        } onCancel: {
            let task = state.withLock { state in
                state.cancelled = true
                return state.task
            }
            task?.cancel()
        }
    }

    /// One request: from the start, or from the first missing byte with `Range`.
    private func attempt() async throws {
        var request = URLRequest(
            url: download.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: download.timeout)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let task: URLSessionDataTask? = state.withLock { state in
                guard !state.cancelled, let session = state.session else { return nil }
                if state.received > 0 {
                    request.setValue("bytes=\(state.received)-", forHTTPHeaderField: "Range")
                    if let validator = state.validator {
                        request.setValue(validator, forHTTPHeaderField: "If-Range")
                    }
                }
                state.attemptBytes = 0
                state.failure = nil
                let task = session.dataTask(with: request)
                state.task = task
                state.continuation = continuation
                return task
            }
            guard let task else {
                continuation.resume(throwing: CancellationError())
                return
            }
            task.resume()
        }
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let refusal: (any Error)? = state.withLock { state in
            do {
                try accept(response, into: &state)
                return nil
            } catch let error as QuireError {
                return error
            } catch let error as Transient {
                return error
            } catch let error as Restart {
                return error
            } catch {
                return QuireError(.unexpectedError, "\(download.url.absoluteString): \(error)", domain: .network)
            }
        }
        completionHandler(.allow)
        if let refusal {
            state.withLock { $0.failure = refusal }
            dataTask.cancel()
        }
    }

    /// Checks a response's status and announced size, and sets up the file for its body
    /// (called under `state`'s lock, with its value).
    private func accept(_ response: URLResponse, into state: inout State) throws {
        let url = download.url.absoluteString
        guard let http = response as? HTTPURLResponse else {
            throw QuireError(.networkError, "\(url) did not answer with HTTP", domain: .network)
        }
        let status = http.statusCode
        switch status {
        case 200:
            if state.received > 0 {
                // The server sends the whole file (it ignores ranges, or the file changed).
                try handle.truncate(atOffset: 0)
                state.received = 0
            }
            state.total = http.expectedContentLength >= 0 ? http.expectedContentLength : nil
            state.validator = FixtureDownloadSession.validator(of: http)
            validatorChanged?(state.validator)
        case 206 where state.received > 0:
            let range = http.value(forHTTPHeaderField: "Content-Range") ?? ""
            guard let (start, size) = FixtureDownloadSession.contentRange(range), start == state.received else {
                throw QuireError(
                    .remoteError,
                    "\(url) answered a range request with Content-Range '\(range)', not bytes from \(state.received)",
                    domain: .network, underlyingCode: 206)
            }
            if let size { state.total = size }
        case 416 where state.received > 0:
            throw Restart()
        case 429, 500, 502, 503, 504:
            throw Transient(error: FixtureDownloadSession.statusError(status, url: url))
        default:
            throw FixtureDownloadSession.statusError(status, url: url)
        }
        if let total = state.total, let expected = download.expectedSize, total != expected {
            throw QuireError(
                .corruptData, "\(url) is \(total) bytes, not the expected \(expected); nothing was installed")
        }
        if let total = state.total, total > download.maximumSize {
            throw QuireError(
                .corruptData,
                "\(url) is \(total) bytes, more than the \(download.maximumSize) allowed; nothing was installed")
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let report: FixtureDownloadProgress?? = state.withLock { state in
            guard state.failure == nil, !state.cancelled else { return nil }
            let limit = min(download.expectedSize ?? .max, download.maximumSize)
            if state.received + Int64(data.count) > limit {
                state.failure = QuireError(
                    .corruptData,
                    "\(download.url.absoluteString) sent more than \(limit) bytes, more than "
                        + (download.expectedSize == nil ? "allowed" : "expected") + "; nothing was installed")
                return .some(nil)
            }
            do {
                try handle.write(contentsOf: data)
            } catch {
                state.failure = QuireError.posix(
                    EIO, "cannot write the downloaded archive: \(error.localizedDescription)")
                return .some(nil)
            }
            state.received += Int64(data.count)
            state.attemptBytes += Int64(data.count)
            return FixtureDownloadProgress(
                receivedBytes: state.received, totalBytes: state.total, resumes: state.resumes,
                retries: state.retries)
        }
        switch report {
        case .some(.some(let snapshot)): progress?(snapshot)
        case .some(.none): dataTask.cancel()
        case .none: break
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, failure, cancelled) = state.withLock { state in
            defer {
                state.continuation = nil
                state.task = nil
            }
            return (state.continuation, state.failure, state.cancelled)
        }
        guard let continuation else { return }
        if let failure {
            continuation.resume(throwing: failure)
        } else if cancelled {
            continuation.resume(throwing: CancellationError())
        } else if let error {
            continuation.resume(throwing: FixtureDownloadSession.map(error, url: download.url))
        } else {
            continuation.resume()
        }
    }

    // MARK: Helpers

    /// The value to send as `If-Range`: a strong ETag, else the Last-Modified date, else nil
    /// (then a resumed request may get bytes of a changed file; the SHA-256 check catches it).
    private static func validator(of response: HTTPURLResponse) -> String? {
        if let tag = response.value(forHTTPHeaderField: "ETag"), !tag.hasPrefix("W/") { return tag }
        return response.value(forHTTPHeaderField: "Last-Modified")
    }

    /// The first byte and the total size of `bytes first-last/total` (total nil for `*`).
    static func contentRange(_ header: String) -> (start: Int64, total: Int64?)? {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst("bytes ".count).split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let span = parts[0].split(separator: "-", maxSplits: 1)
        guard span.count == 2, let start = Int64(span[0]), let end = Int64(span[1]), end >= start else { return nil }
        if parts[1] == "*" { return (start, nil) }
        guard let total = Int64(parts[1]), total > end else { return nil }
        return (start, total)
    }

    /// The error for an HTTP status other than 200 (or 206 to a range request).
    static func statusError(_ status: Int, url: String) -> QuireError {
        let phrase = HTTPURLResponse.localizedString(forStatusCode: status)
        let message = "\(url) answered HTTP \(status) (\(phrase)); nothing was installed"
        let code: QuireError.Code
        switch status {
        case 401: code = .httpAuthRequired
        case 403: code = .httpForbidden
        case 404: code = .httpNotFound
        case 500: code = .httpInternalServerError
        case 503: code = .httpServiceUnavailable
        default: code = .remoteError
        }
        return QuireError(code, message, domain: .network, underlyingCode: Int32(clamping: status))
    }

    /// A transport failure as a QuireError; failures after the request went out are
    /// ``Interruption``s.
    private static func map(_ error: any Error, url: URL) -> any Error {
        let target = url.absoluteString
        guard let urlError = error as? URLError else {
            return Interruption(
                error: QuireError(
                    .networkError, "downloading \(target) failed: \(error.localizedDescription)", domain: .network))
        }
        switch urlError.code {
        case .cancelled:
            return CancellationError()
        case .timedOut:
            return Interruption(error: QuireError(.timeout, "downloading \(target) timed out", domain: .network))
        case .cannotFindHost:
            return QuireError(.unknownHost, "cannot find the host of \(target)", domain: .network)
        case .dnsLookupFailed:
            return QuireError(.dnsFailure, "DNS lookup failed for \(target)", domain: .network)
        case .badURL, .unsupportedURL:
            return QuireError(.invalidURL, "cannot download \(target): invalid URL", domain: .network)
        case .cannotConnectToHost:
            return Transient(
                error: QuireError(.networkError, "cannot connect to the host of \(target)", domain: .network))
        default:
            return Interruption(
                error: QuireError(
                    .networkError,
                    "downloading \(target) failed: \(urlError.localizedDescription) (URLError \(urlError.code.rawValue))",
                    domain: .network))
        }
    }
}
