import NIOCore

/// Watches the raw bytes of each request head before the HTTP decoder, so a request the
/// decoder refuses can be answered naming what was wrong: whether the request line was
/// still unfinished (a URL too long is a 414, headers too large a 431), and how the request
/// line began (an unknown method is told from bytes that are not HTTP at all).
///
/// While a head is being read it passes the bytes on one line at a time, so the decoder has
/// handled every earlier line (and reported a finished head through
/// ``ParserRefusalHandler``) before the next line is looked at. Bodies pass through whole.
final class RequestLineWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// How many bytes of the request line are kept for a refusal's reason.
    static let keptBytes = 48

    /// Whether the bytes arriving belong to a request head (not to a body).
    private var readingHead = true
    /// Whether the current head's request line has ended.
    private(set) var requestLineEnded = false
    /// The first ``keptBytes`` bytes of the current head's request line.
    private(set) var requestLineStart: [UInt8] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        while readingHead, buffer.readableBytes > 0 {
            let lineFeed = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n"))
            let length = lineFeed.map { $0 - buffer.readerIndex + 1 } ?? buffer.readableBytes
            guard let line = buffer.readSlice(length: length) else { break }
            if !requestLineEnded {
                note(requestLineBytes: line, ended: lineFeed != nil)
            }
            context.fireChannelRead(wrapInboundOut(line))
        }
        if buffer.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(buffer)) }
    }

    private func note(requestLineBytes line: ByteBuffer, ended: Bool) {
        let bytes = line.readableBytesView.filter { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        // Empty lines before a request line are allowed (RFC 9112 section 2.2) and skipped.
        if ended && bytes.isEmpty && requestLineStart.isEmpty { return }
        requestLineStart.append(contentsOf: bytes.prefix(Self.keptBytes - requestLineStart.count))
        if ended { requestLineEnded = true }
    }

    /// The decoder produced a request head: what follows is its body.
    func headDecoded() {
        readingHead = false
    }

    /// The decoder finished a request: what follows is the next head.
    func requestDecoded() {
        readingHead = true
        requestLineEnded = false
        requestLineStart = []
    }
}
