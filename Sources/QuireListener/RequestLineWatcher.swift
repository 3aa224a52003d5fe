import NIOCore

/// Watches the raw bytes of each request head before the HTTP decoder, so a request the
/// decoder refuses can be answered naming what was wrong: whether the request line was
/// still unfinished (a URL too long is a 414, headers too large a 431), and how the request
/// line began (an unknown method is told from bytes that are not HTTP at all).
///
/// While a head is being read it passes the bytes on one line at a time, so the decoder has
/// handled every earlier line (and reported a finished head through
/// ``ParserRefusalHandler``) before the next line is looked at. A body of a known length
/// passes through as that many bytes, so a pipelined request after it in the same read is
/// watched line by line too; a chunked body passes through whole with whatever follows it.
final class RequestLineWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// How many bytes of the request line are kept for a refusal's reason.
    static let keptBytes = 48

    /// Whether the bytes arriving belong to a request head (not to a body).
    private var readingHead = true
    /// The bytes of the current body still to come, when its head gave a `Content-Length`.
    private var bodyBytesLeft: Int?
    /// Whether the current head's request line has ended.
    private(set) var requestLineEnded = false
    /// The first ``keptBytes`` bytes of the current head's request line.
    private(set) var requestLineStart: [UInt8] = []
    private var context: ChannelHandlerContext?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        while buffer.readableBytes > 0 {
            if readingHead {
                let lineFeed = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n"))
                let length = lineFeed.map { $0 - buffer.readerIndex + 1 } ?? buffer.readableBytes
                guard let line = buffer.readSlice(length: length) else { break }
                let endsRequestLine = !requestLineEnded && note(requestLineBytes: line, ended: lineFeed != nil)
                // Marked after the decoder has seen the line: an error within it is the request line's.
                context.fireChannelRead(wrapInboundOut(line))
                if endsRequestLine { requestLineEnded = true }
            } else if let left = bodyBytesLeft, left > 0 {
                // The decoder ends the request within this slice when it is the body's last.
                guard let body = buffer.readSlice(length: min(left, buffer.readableBytes)) else { break }
                bodyBytesLeft = left - body.readableBytes
                context.fireChannelRead(wrapInboundOut(body))
            } else {
                break
            }
        }
        if buffer.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(buffer)) }
    }

    /// Keeps the start of the request line; true when `line` ends it.
    private func note(requestLineBytes line: ByteBuffer, ended: Bool) -> Bool {
        let bytes = line.readableBytesView.filter { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        // Empty lines before a request line are allowed (RFC 9112 section 2.2) and skipped.
        if ended && bytes.isEmpty && requestLineStart.isEmpty { return false }
        requestLineStart.append(contentsOf: bytes.prefix(max(0, Self.keptBytes - requestLineStart.count)))
        return ended
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Writes `bytes` to the connection as they are, past the HTTP encoder: the body of a
    /// refusal of `CONNECT`, which NIO's encoder would drop (it sends no body after `CONNECT`,
    /// right for a tunnel's 2xx but not for an error).
    func writeRaw(_ bytes: ByteBuffer) {
        context?.write(NIOAny(bytes), promise: nil)
    }

    /// The decoder produced a request head: what follows is its body, `bodyLength` bytes when
    /// the head gave its length (nil for a chunked body).
    func headDecoded(bodyLength: Int?) {
        readingHead = false
        bodyBytesLeft = bodyLength
    }

    /// The decoder finished a request: what follows is the next head.
    func requestDecoded() {
        readingHead = true
        bodyBytesLeft = nil
        requestLineEnded = false
        requestLineStart = []
    }
}
