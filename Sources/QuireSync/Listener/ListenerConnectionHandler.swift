import Hummingbird
import NIOCore
import NIOHTTPTypes

/// The listener's view of one connection, after the HTTP decoder:
///
/// - it closes the connection once a response that says `Connection: close` has been
///   written, so that header is never a lie;
/// - it tells the connection's ``RequestHeadTimeoutHandler`` when a request head arrives and
///   when a response ends;
/// - it reports the client closing its side (end of input) while a response is in progress,
///   so a changes feed waiting on that connection ends. (Hummingbird allows half-closed
///   connections, so the connection itself stays open until the server is done.)
final class ListenerConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let onInputClosed: @Sendable (any Channel) -> Void
    private var headTimeout: RequestHeadTimeoutHandler?
    private var closeAfterResponse = false

    /// A handler calling `onInputClosed` with the connection when the client closes its side.
    init(onInputClosed: @escaping @Sendable (any Channel) -> Void) {
        self.onInputClosed = onInputClosed
    }

    func handlerAdded(context: ChannelHandlerContext) {
        headTimeout = try? context.pipeline.syncOperations.handler(type: RequestHeadTimeoutHandler.self)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { headTimeout?.headReceived() }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { onInputClosed(context.channel) }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if let connection = head.headerFields[.connection], connection.lowercased().contains("close") {
                closeAfterResponse = true
            }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            headTimeout?.responseEnded()
            guard closeAfterResponse else {
                context.write(data, promise: promise)
                return
            }
            // Closed once the end is on the wire, so the response is not cut short.
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            if let promise { written.futureResult.cascade(to: promise) }
            context.writeAndFlush(data, promise: written)
        }
    }
}
