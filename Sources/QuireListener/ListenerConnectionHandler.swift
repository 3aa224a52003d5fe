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
/// - it closes the connection when a request body arrives slower than its ``BodyClock``
///   allows, so a slow sender cannot hold a connection (or the body budget) for long;
/// - it closes the connection when its socket stays full (the channel not writable: the
///   client takes no bytes) for longer than its write timeout, so a client that does not
///   read cannot hold a response (or its room in the response budget) for long. Writes wait
///   while the channel is not writable, so this is the one place a stalled write shows.
final class ListenerConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let onInputClosed: @Sendable (any Channel) -> Void
    private var headTimeout: RequestHeadTimeoutHandler?
    private var closeAfterResponse = false
    private let clock: BodyClock
    /// The body being received: when its head came, its bytes so far, and the check.
    private var body: (start: NIODeadline, received: Int, check: Scheduled<Void>?)?
    /// How long the channel may stay unwritable before the connection is closed.
    private let writeTimeout: TimeAmount
    /// The close scheduled while the channel is not writable.
    private var stalledWrite: Scheduled<Void>?
    /// Told when a request starts being answered and when its response ends.
    private let counter: ListenerChannel.Counter?
    /// A request head has arrived and its response has not ended (counted in ``counter``).
    private var answering = false

    /// How long a request body may take: `grace` plus one second per `rate` bytes received.
    struct BodyClock: Sendable {
        let grace: TimeAmount
        let rate: Int

        /// When a body that started at `start` and has `received` bytes so far is too slow.
        func deadline(start: NIODeadline, received: Int) -> NIODeadline {
            let perByte = 1_000_000_000 / Double(max(1, rate))
            let allowed = Int64(min(Double(Int64.max / 4), Double(received) * perByte))
            return start + grace + .nanoseconds(allowed)
        }
    }

    /// A handler calling `onInputClosed` with the connection when the client closes its side
    /// and closing it when a body is slower than `clock` allows or when the client takes no
    /// response bytes for `writeTimeout`.
    init(
        clock: BodyClock, writeTimeout: TimeAmount = .seconds(60), counter: ListenerChannel.Counter? = nil,
        onInputClosed: @escaping @Sendable (any Channel) -> Void
    ) {
        self.counter = counter
        self.clock = clock
        self.writeTimeout = writeTimeout
        self.onInputClosed = onInputClosed
    }

    func handlerAdded(context: ChannelHandlerContext) {
        headTimeout = try? context.pipeline.syncOperations.handler(type: RequestHeadTimeoutHandler.self)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            headTimeout?.headReceived()
            setAnswering(true)
            let fields = head.headerFields
            let declared = fields[.contentLength].flatMap { Int($0) } ?? 0
            if declared > 0 || fields[.transferEncoding] != nil {
                body = (.now(), 0, nil)
                scheduleBodyCheck(context)
            }
        case .body(let buffer):
            body?.received += buffer.readableBytes
        case .end:
            stopBodyClock()
        }
        context.fireChannelRead(data)
    }

    /// Checks the body's progress at its deadline: closes the connection when it is late,
    /// else checks again at the later deadline its bytes since have earned.
    private func scheduleBodyCheck(_ context: ChannelHandlerContext) {
        guard let current = body else { return }
        let deadline = clock.deadline(start: current.start, received: current.received)
        let loop = context.eventLoop.assumeIsolated()
        let check = loop.scheduleTask(deadline: deadline) { [weak self] in
            guard let self, let body = self.body else { return }
            if self.clock.deadline(start: body.start, received: body.received) <= .now() {
                self.body = nil
                context.close(promise: nil)
            } else {
                self.scheduleBodyCheck(context)
            }
        }
        body?.check = check
    }

    private func setAnswering(_ now: Bool) {
        guard now != answering else { return }
        answering = now
        if now { counter?.requestBegan() } else { counter?.requestEnded() }
    }

    private func stopBodyClock() {
        body?.check?.cancel()
        body = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopBodyClock()
        stopWriteClock()
        setAnswering(false)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopBodyClock()
        stopWriteClock()
        setAnswering(false)
    }

    /// Starts the write clock when the channel stops being writable (the socket is full and
    /// bytes are waiting) and stops it when it can take bytes again; at the deadline a
    /// still-unwritable channel is closed, which ends the write waiting on it.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stopWriteClock()
        } else if stalledWrite == nil {
            let loop = context.eventLoop.assumeIsolated()
            stalledWrite = loop.scheduleTask(in: writeTimeout) { [weak self] in
                guard let self, self.stalledWrite != nil else { return }
                self.stalledWrite = nil
                if !context.channel.isWritable { context.close(promise: nil) }
            }
        }
        context.fireChannelWritabilityChanged()
    }

    private func stopWriteClock() {
        stalledWrite?.cancel()
        stalledWrite = nil
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
            setAnswering(false)
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
