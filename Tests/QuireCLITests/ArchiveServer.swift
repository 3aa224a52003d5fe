import Foundation
import Quire
import QuireTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 file server on 127.0.0.1 for the download tests, on raw sockets: each
/// request goes to a handler that scripts the answer, so a test can play a CDN that drops the
/// connection mid-transfer, serves the wrong file, answers 404 or never answers. Ranges
/// (`Range: bytes=N-`) are honoured for ``Reply/file(_:etag:cutAfter:)``. One request per
/// connection (`Connection: close`).
final class ArchiveServer: Sendable {
    /// A request as received.
    struct Request: Sendable {
        let method: String
        let path: String
        /// Header names in lowercase.
        let headers: [String: String]
    }

    enum Reply: Sendable {
        /// The file (from the requested offset with 206 when the request has a Range), with an
        /// ETag; with `cutAfter`, only that many body bytes are sent before the connection
        /// closes, the headers still announcing the whole length.
        case file(Data, etag: String = "\"v1\"", cutAfter: Int? = nil)
        /// The file ignoring any Range: always 200 and the whole body.
        case wholeFile(Data)
        /// A status with a short text body.
        case status(Int)
        /// Headers (with the ETag `"v1"`) and the first `sent` bytes of `data`, then nothing
        /// until the client closes.
        case stall(Data, sent: Int)
        /// No answer at all; the connection stays open until the client closes it.
        case silent
    }

    private let listener: LoopbackListener
    private let handler: @Sendable (Request) -> Reply
    private let log = Locked<[Request]>([])

    init(_ handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        listener = try LoopbackListener()
        listener.start { [weak self] connection in
            guard let self else {
                close(connection)
                return
            }
            serve(connection)
        }
    }

    /// The port it listens on.
    var port: UInt16 { listener.port }

    /// `http://127.0.0.1:<port>/<path>`.
    func url(_ path: String = "travel.quire.zip") -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// The requests received so far.
    var requests: [Request] { log.withLock { $0 } }

    func stop() { listener.stop() }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let received = LoopbackRequest.receive(from: connection) else { return }
        let headers = received.headers
        let request = Request(method: received.method, path: received.target, headers: headers)
        log.withLock { $0.append(request) }
        switch handler(request) {
        case .silent:
            waitForClientClose(connection)
        case .status(let status):
            let body = Data("status \(status)\n".utf8)
            send(connection, head: "HTTP/1.1 \(status) Scripted\r\nContent-Length: \(body.count)\r\n", body: body)
        case .wholeFile(let data):
            send(connection, head: "HTTP/1.1 200 OK\r\nContent-Length: \(data.count)\r\n", body: data)
        case .stall(let data, let sent):
            send(
                connection, head: "HTTP/1.1 200 OK\r\nETag: \"v1\"\r\nContent-Length: \(data.count)\r\n",
                body: data.prefix(sent), close: false)
            waitForClientClose(connection)
        case .file(let data, let etag, let cutAfter):
            var start = 0
            if let range = headers["range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
                let offset = Int(range.dropFirst("bytes=".count).dropLast()), offset < data.count,
                headers["if-range"] == nil || headers["if-range"] == etag
            {
                start = offset
            }
            let body = data[start...]
            let status = start > 0 ? "206 Partial Content" : "200 OK"
            var fields =
                "HTTP/1.1 \(status)\r\nETag: \(etag)\r\nAccept-Ranges: bytes\r\nContent-Length: \(body.count)\r\n"
            if start > 0 { fields += "Content-Range: bytes \(start)-\(data.count - 1)/\(data.count)\r\n" }
            send(connection, head: fields, body: Data(body.prefix(cutAfter ?? body.count)))
        }
    }

    /// Writes the response head (plus `Connection: close`) and `body`.
    private func send(_ connection: Int32, head: String, body: Data, close: Bool = true) {
        var response = Data(
            (head + "Content-Type: application/zip\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n").utf8)
        response.append(body)
        LoopbackRequest.send(response, to: connection)
    }

    /// Blocks until the client closes its side (or the connection fails).
    private func waitForClientClose(_ connection: Int32) {
        var chunk = [UInt8](repeating: 0, count: 1024)
        while read(connection, &chunk, chunk.count) > 0 {}
    }
}
