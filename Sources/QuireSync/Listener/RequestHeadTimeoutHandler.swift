import NIOCore

/// Closes a connection whose request head (request line and headers) is not complete
/// within `timeout` of its first byte, so half-sent heads cannot hold connections.
///
/// It sits before the HTTP decoder and sees raw bytes: bytes arriving while no request is
/// in progress start the clock. ``ListenerConnectionHandler``, after the decoder, reports each
/// complete head (which stops the clock) and each response's end (after which the next
/// bytes start a new head).
final class RequestHeadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    /// Heads received minus responses ended: requests in progress on the connection.
    private var requestsInProgress = 0
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if requestsInProgress == 0, deadline == nil {
            let loop = context.eventLoop.assumeIsolated()
            deadline = loop.scheduleTask(in: timeout) { [weak self] in
                guard let self, self.deadline != nil else { return }
                self.deadline = nil
                context.close(promise: nil)
            }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
    }

    /// A request head was decoded: the clock stops.
    func headReceived() {
        requestsInProgress += 1
        cancelDeadline()
    }

    /// A response was sent in full.
    func responseEnded() {
        requestsInProgress = max(0, requestsInProgress - 1)
    }

    private func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}
