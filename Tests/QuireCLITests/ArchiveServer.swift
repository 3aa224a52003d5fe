import Foundation

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
final class ArchiveServer: @unchecked Sendable {
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

    private let listener: Int32
    let port: UInt16
    private let handler: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var log: [Request] = []
    private var stopped = false

    init(_ handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// `http://127.0.0.1:<port>/<path>`.
    func url(_ path: String = "travel.quire.zip") -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// The requests received so far.
    var requests: [Request] { lock.withLock { log } }

    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // Only shut down: the accept loop closes the descriptor once it has seen the stop, so
        // its number cannot be handed to another socket while the loop may still accept on it.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if lock.withLock({ stopped }) {
                    close(listener)
                    return
                }
                continue
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { return }
            buffer.append(contentsOf: chunk[0..<count])
        }
        guard let end = buffer.range(of: separator),
            let head = String(data: buffer[..<end.lowerBound], encoding: .utf8)
        else { return }
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let pair = line.split(separator: ":", maxSplits: 1)
            if pair.count == 2 { headers[pair[0].lowercased()] = pair[1].trimmingCharacters(in: .whitespaces) }
        }
        let request = Request(method: String(parts[0]), path: String(parts[1]), headers: headers)
        lock.withLock { log.append(request) }
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
        response.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(connection, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// Blocks until the client closes its side (or the connection fails).
    private func waitForClientClose(_ connection: Int32) {
        var chunk = [UInt8](repeating: 0, count: 1024)
        while read(connection, &chunk, chunk.count) > 0 {}
    }
}
