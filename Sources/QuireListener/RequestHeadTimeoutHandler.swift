import NIOCore

/// Closes a connection whose request head (request line and headers) is not complete
/// within `timeout` of the connection opening, or on a kept connection of the head's first
/// byte, so silent connections and half-sent heads cannot hold connection slots.
///
/// It sits before the HTTP decoder and sees raw bytes: the connection opening, and bytes
/// arriving while no request is in progress, start the clock. ``ListenerConnectionHandler``, after the decoder, reports each
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

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startClock(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startClock(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        startClock(context)
        context.fireChannelRead(data)
    }

    /// Starts the clock unless a request is in progress or it already runs.
    private func startClock(_ context: ChannelHandlerContext) {
        guard requestsInProgress == 0, deadline == nil else { return }
        let loop = context.eventLoop.assumeIsolated()
        deadline = loop.scheduleTask(in: timeout) { [weak self] in
            guard let self, self.deadline != nil else { return }
            self.deadline = nil
            context.close(promise: nil)
        }
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
