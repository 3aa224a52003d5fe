import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for unit tests: each request goes to a handler that
/// scripts the answer, which lets a test play a broken or hostile peer. One request per
/// connection (`Connection: close`).
final class ScriptedPeer: @unchecked Sendable {
    struct Request: Sendable {
        let method: String
        /// Path without the query, percent-encoded as sent.
        let path: String
        let query: String
        let body: Data
    }

    enum Reply: Sendable {
        case json(Int, String)
        case raw(Int, Data)
        /// Close the connection without answering.
        case drop
        /// A peer dying mid-response: the status line and headers announcing all of `body`
        /// (its full Content-Length), then only its first `sent` bytes, then the connection
        /// is closed, or reset (an RST rather than a FIN) when `reset` is true.
        case cutOff(Int, Data, sent: Int, reset: Bool)

        /// A `.cutOff` of `text` after half of it.
        static func cutOffHalfway(_ status: Int, _ text: String, reset: Bool = false) -> Reply {
            let data = Data(text.utf8)
            return .cutOff(status, data, sent: data.count / 2, reset: reset)
        }
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

    /// `http://127.0.0.1:<port>/<name>`.
    func url(_ name: String = "db") -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(name)") ?? URL(fileURLWithPath: "/")
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
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { return }
            buffer.append(contentsOf: chunk[0..<count])
            headerEnd = buffer.range(of: separator)
        }
        guard let headerEnd, let head = String(data: buffer[..<headerEnd.lowerBound], encoding: .utf8) else { return }
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return }
        var contentLength = 0
        for line in lines.dropFirst() {
            let pair = line.split(separator: ":", maxSplits: 1)
            if pair.count == 2, pair[0].lowercased() == "content-length" {
                contentLength = Int(pair[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        var body = Data(buffer[headerEnd.upperBound...])
        while body.count < contentLength {
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { return }
            body.append(contentsOf: chunk[0..<count])
        }
        let target = String(parts[1])
        let pieces = target.split(separator: "?", maxSplits: 1)
        let request = Request(
            method: String(parts[0]), path: String(pieces.first ?? ""),
            query: pieces.count > 1 ? String(pieces[1]) : "",
            body: body)
        lock.withLock { log.append(request) }
        let status: Int
        let payload: Data
        var sent: Int?
        var reset = false
        switch handler(request) {
        case .drop:
            return
        case .json(let code, let text):
            status = code
            payload = Data(text.utf8)
        case .raw(let code, let data):
            status = code
            payload = data
        case .cutOff(let code, let data, let count, let abort):
            status = code
            payload = data
            sent = min(max(0, count), data.count)
            reset = abort
        }
        var response = Data(
            "HTTP/1.1 \(status) Scripted\r\nContent-Type: application/json\r\nContent-Length: \(payload.count)\r\nConnection: close\r\n\r\n"
                .utf8)
        response.append(payload.prefix(sent ?? payload.count))
        if reset {
            // A zero linger time makes close() send an RST.
            var option = linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
        response.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(connection, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
