import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Closes the connection once a response that says `Connection: close` has been written,
/// so that header is never a lie; and tells the ``RequestHeadTimeoutHandler`` of the
/// connection when a request head arrives and when a response ends.
final class ResponseCloseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var headTimeout: RequestHeadTimeoutHandler?
    private var closeAfterResponse = false

    func handlerAdded(context: ChannelHandlerContext) {
        headTimeout = try? context.pipeline.syncOperations.handler(type: RequestHeadTimeoutHandler.self)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { headTimeout?.headReceived() }
        context.fireChannelRead(data)
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
