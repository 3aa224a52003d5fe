#if TLS
    import NIOCore

    /// One end of a pipe between two channels on the same event loop: what one end reads,
    /// the other writes. Reading waits while the other end cannot write (back pressure), and
    /// either end closing or failing closes both.
    final class ForwardingHandler: ChannelDuplexHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private var partner: ForwardingHandler?
        private var context: ChannelHandlerContext?
        private var readPending = false

        private init() {}

        /// Two ends joined to each other; add one to each channel.
        static func pair() -> (ForwardingHandler, ForwardingHandler) {
            let first = ForwardingHandler()
            let second = ForwardingHandler()
            first.partner = second
            second.partner = first
            return (first, second)
        }

        func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            self.context = nil
            partner = nil
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            partner?.context?.write(data, promise: nil)
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            partner?.context?.flush()
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner?.context?.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            if context.channel.isWritable { partner?.partnerBecameWritable() }
            context.fireChannelWritabilityChanged()
        }

        func read(context: ChannelHandlerContext) {
            if partner?.context?.channel.isWritable ?? false {
                context.read()
            } else {
                readPending = true
            }
        }

        private func partnerBecameWritable() {
            guard readPending, let context else { return }
            readPending = false
            context.read()
        }
    }
#endif
