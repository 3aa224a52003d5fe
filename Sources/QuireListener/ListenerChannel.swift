import Foundation
import HummingbirdCore
import Logging
import NIOCore
import Quire
import QuireSync

#if TLS
    import NIOSSL
#endif

/// A listener's HTTP/1.1 connection: Hummingbird's, with the idle timeout set, a request-head
/// timeout and a ``RequestLineWatcher`` in front of the HTTP decoder, and after it a
/// ``ParserRefusalHandler`` (CouchDB error bodies for requests the decoder refuses, `CONNECT`
/// refused) and a ``ListenerConnectionHandler`` (closing after a response that says
/// `Connection: close`, ending feeds when the client leaves). With a ``tls`` context, a
/// `NIOSSLServerHandler` comes first of all, so everything after it sees plain HTTP; a
/// client that does not speak TLS fails the handshake and its connection closes.
struct ListenerChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    /// Counts the connections accepted (so tests can tell a reused connection from a new
    /// one), those open, and those answering a request (``URLEndpointListener/status``).
    final class Counter: Sendable {
        private let counts = Locked((accepted: 0, open: 0, active: 0))

        /// Connections accepted since the listener started.
        var acceptedCount: Int { counts.withLock { $0.accepted } }
        /// Connections open now.
        var openCount: Int { counts.withLock { $0.open } }
        /// Connections with a request between its head's arrival and its response's end.
        var activeCount: Int { counts.withLock { $0.active } }

        func requestBegan() { counts.withLock { $0.active += 1 } }
        func requestEnded() { counts.withLock { $0.active -= 1 } }

        func opened() {
            counts.withLock {
                $0.accepted += 1
                $0.open += 1
            }
        }
        func closed() { counts.withLock { $0.open -= 1 } }
    }

    private let http: HTTP1Channel
    private let headTimeout: TimeAmount
    private let counter: Counter
    #if TLS
        /// Serves HTTPS with this context; nil serves plain HTTP.
        var tls: NIOSSLContext?
        /// With ``tls``, checks the certificate each client must present; nil asks for none.
        var clientCertificates: ListenerCertificateAuthenticator?
    #endif

    init(
        responder: @escaping HTTPChannelHandler.Responder, idleTimeout: Duration, headTimeout: Duration,
        bodyClock: ListenerConnectionHandler.BodyClock, writeTimeout: Duration = .seconds(60), counter: Counter,
        feeds: FeedRegistry
    ) {
        http = HTTP1Channel(
            responder: responder,
            configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [
                    ParserRefusalHandler(),
                    ListenerConnectionHandler(
                        clock: bodyClock, writeTimeout: TimeAmount(writeTimeout), counter: counter
                    ) {
                        feeds.endFeeds(of: $0)
                    },
                ],
                idleTimeout: TimeAmount(idleTimeout)))
        self.headTimeout = TimeAmount(headTimeout)
        self.counter = counter
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let counter = self.counter
        let headTimeout = self.headTimeout
        #if TLS
            let tls = self.tls
            let clientCertificates = self.clientCertificates
        #endif
        let added = channel.eventLoop.makeCompletedFuture {
            // First in the pipeline (after TLS): it sees the request bytes, so it knows when a
            // head starts.
            try channel.pipeline.syncOperations.addHandler(RequestLineWatcher(), position: .first)
            // The head timeout counts from the connection opening, so it also ends a TLS
            // handshake that never finishes.
            try channel.pipeline.syncOperations.addHandler(
                RequestHeadTimeoutHandler(timeout: headTimeout), position: .first)
            #if TLS
                if let tls, let clientCertificates {
                    // The client's certificate is checked by the authenticator alone.
                    let handler = NIOSSLServerHandler(context: tls) { certificates, promise in
                        let chain = certificates.compactMap { try? Data($0.toDERBytes()) }
                        let accepted = chain.count == certificates.count && clientCertificates.accepts(chain)
                        promise.succeed(accepted ? .certificateVerified : .failed)
                    }
                    try channel.pipeline.syncOperations.addHandler(handler, position: .first)
                } else if let tls {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls), position: .first)
                }
            #endif
            counter.opened()
            channel.closeFuture.whenComplete { _ in counter.closed() }
        }
        return added.flatMap { http.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await http.handle(value: value, logger: logger)
    }
}
