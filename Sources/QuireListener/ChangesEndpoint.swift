import Hummingbird
import Quire
import QuireSync

/// `GET|POST /{db}/_changes`: normal, longpoll, continuous and eventsource feeds.
struct ChangesEndpoint: Sendable {
    let served: ServedCollection
    let feeds: FeedRegistry
    let maxTimeout: Duration
    /// Where the scans run (see ``DatabaseWork``).
    let work: DatabaseWork

    func respond(_ request: ListenerRequest) async throws -> Response {
        // Spelled out: JSONValue is nil-literal-expressible, so a ternary would turn nil into `.null`.
        var body: JSONValue?
        if request.method == .post, !request.body.isEmpty { body = try request.jsonBody() }
        let options = try ChangesOptions(query: request.query, body: body, maxTimeout: maxTimeout)
        let scanner = ChangesScanner(served: served, options: options)
        let collection = served.collection
        let since: UInt64
        if let given = options.since {
            since = given
        } else {
            since = try await work.read { try collection.lastSequence() }
        }

        if options.descending {
            let (entries, last) = try await work.read { try scanner.scanDescending(limit: options.limit) }
            return JSONResponse.make(.ok, ChangesResponse(results: entries, lastSequence: ChangesSequence(last)).json)
        }
        guard options.feed != .normal else {
            let (entries, last) = try await work.read { try scanner.scan(after: since, limit: options.limit) }
            return JSONResponse.make(.ok, ChangesResponse(results: entries, lastSequence: ChangesSequence(last)).json)
        }
        // Registered before the first scan, so a commit between scan and wait is not missed.
        // The client going away (its connection closing) ends the feed.
        let signal = ChangeSignal(collection: served.collection)
        feeds.add(signal, endingWith: request.connection)
        let first: (entries: [ChangesResponse.Entry], last: UInt64)
        do {
            first = try await work.read { try scanner.scan(after: since, limit: options.limit) }
        } catch {
            feeds.remove(signal)
            throw error
        }
        if options.feed == .longpoll, !first.entries.isEmpty {
            feeds.remove(signal)
            return JSONResponse.make(
                .ok, ChangesResponse(results: first.entries, lastSequence: ChangesSequence(first.last)).json)
        }
        let feed = ChangesFeed(scanner: scanner, options: options, signal: signal, work: work)
        let feeds = self.feeds
        let contentType = options.feed == .eventsource ? "text/event-stream" : "application/json"
        return Response(
            status: .ok, headers: [.contentType: contentType, .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                defer { feeds.remove(signal) }
                let outcome: Result<Void, any Error>
                do {
                    // Run in the connection's own task, not under an inbound-close watcher:
                    // such a watcher reads the connection's request stream and, cancelled when
                    // the feed ends, finishes that stream, so the connection closed after every
                    // feed without saying so. When the feed ends the connection goes on to its
                    // next request.
                    try await feed.run(first: first, writer: &writer)
                    outcome = .success(())
                } catch {
                    outcome = .failure(error)
                }
                // Finished on every path, so the response ends however the feed did.
                do {
                    try await writer.finish(nil)
                } catch {
                    if case .success = outcome { throw error }
                }
                // A feed cut short by the server stopping is not a failure; any other error
                // (a write to a client that left) closes the connection.
                if case .failure(let error) = outcome, !(error is CancellationError) { throw error }
            })
    }
}
