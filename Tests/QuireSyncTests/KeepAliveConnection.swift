import Foundation
import Quire
import QuireTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One loopback TCP connection kept open across requests, as an HTTP/1.1 client with
/// keep-alive uses it: each response is read to its framed end (Content-Length or chunked),
/// so the next request goes on the same socket. Tells whether the server closed the
/// connection. Blocking calls run on threads of their own (see ``RawHTTPClient``).
final class KeepAliveConnection: @unchecked Sendable {
    /// A response read from the connection.
    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        var json: JSONValue { (try? JSONReader.parse(body)) ?? .null }

        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }

        /// Whether the response says the server closes the connection after it.
        var saysClose: Bool { header("Connection")?.lowercased().contains("close") ?? false }
    }

    let port: UInt16
    private let descriptor: Int32
    /// Bytes received and not yet part of a reply.
    private var pending = Data()

    /// Connects to 127.0.0.1:`port`; reads wait at most `timeoutSeconds` (a safety net).
    /// `receiveBufferSize` sets the socket's receive buffer before connecting (so the window
    /// the server may fill is small).
    init(port: UInt16, timeoutSeconds: Int = 30, receiveBufferSize: Int32? = nil) throws {
        self.port = port
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw QuireError(.networkError, "socket() failed") }
        if var size = receiveBufferSize {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw QuireError(.networkError, "connect() to port \(port) failed")
        }
    }

    deinit { close(descriptor) }

    /// Closes the socket's sending side (the server reads the end of the stream), or both.
    func shutdown(sendingOnly: Bool = false) {
        _ = Glibc.shutdown(descriptor, Int32(sendingOnly ? SHUT_WR : SHUT_RDWR))
    }

    /// Sends `method path` with `headers` (Host is added) and `body`, and reads its reply.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data = Data()
    ) async throws -> Reply {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        var bytes = Data((head + "\r\n").utf8)
        bytes.append(body)
        try await send(bytes)
        return try await readReply(method: method)
    }

    /// Sends `bytes` as they are.
    func send(_ bytes: Data) async throws {
        try await onThread { try self.sendNow(bytes) }
    }

    /// Reads one reply (to a HEAD request when `method` is HEAD: no body).
    func readReply(method: String = "GET") async throws -> Reply {
        try await onThread { try self.readReplyNow(method: method) }
    }

    /// Waits until the server closes the connection (true), or the read timeout passes or
    /// data arrives first (false).
    func waitForClose() async -> Bool {
        (try? await onThread { () -> Bool in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(self.descriptor, &chunk, chunk.count, 0)
                if count == 0 { return true }
                if count < 0 { return errno == ECONNRESET }
                self.pending.append(contentsOf: chunk[0..<count])
                return false
            }
        }) ?? false
    }

    private func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    private func sendNow(_ bytes: Data) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = sendRetryingInterrupts(
                    descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                guard sent > 0 else { throw QuireError(.networkError, "send() failed: the connection is closed") }
                offset += sent
            }
        }
    }

    /// Reads more bytes into `pending`; false at the end of the stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = receiveRetryingInterrupts(descriptor, &chunk, chunk.count)
        if count == 0 { return false }
        if count < 0 {
            if errno == ECONNRESET { return false }
            throw QuireError(.networkError, "recv() failed (errno \(errno)): no reply in time")
        }
        pending.append(contentsOf: chunk[0..<count])
        return true
    }

    private func readReplyNow(method: String) throws -> Reply {
        let separator = Data("\r\n\r\n".utf8)
        while pending.range(of: separator) == nil {
            guard try fill() else {
                throw QuireError(.networkError, "the server closed the connection without a reply")
            }
        }
        guard let end = pending.range(of: separator) else { throw QuireError(.networkError, "no head") }
        let lines = String(decoding: pending[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        pending = Data(pending[end.upperBound...])
        let statusParts = (lines.first ?? "").split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw QuireError(.networkError, "bad status line '\(lines.first ?? "")'")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let find = { (name: String) in headers.first { $0.key.lowercased() == name }?.value }
        var body = Data()
        if method == "HEAD" || status == 204 || status == 304 {
            // No body.
        } else if let length = find("content-length").flatMap({ Int($0) }) {
            while pending.count < length {
                guard try fill() else { throw QuireError(.networkError, "the body was cut short") }
            }
            body = Data(pending.prefix(length))
            pending = Data(pending.dropFirst(length))
        } else if find("transfer-encoding")?.lowercased() == "chunked" {
            body = try readChunks()
        } else {
            while try fill() {}
            body = pending
            pending = Data()
        }
        return Reply(status: status, headers: headers, body: body)
    }

    private func readChunks() throws -> Data {
        var body = Data()
        let lineEnd = Data("\r\n".utf8)
        while true {
            while pending.range(of: lineEnd) == nil {
                guard try fill() else { throw QuireError(.networkError, "the chunked body was cut short") }
            }
            guard let range = pending.range(of: lineEnd) else { continue }
            let sizeText = String(decoding: pending[..<range.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else {
                throw QuireError(.networkError, "bad chunk size '\(sizeText)'")
            }
            pending = Data(pending[range.upperBound...])
            if size == 0 {
                // Trailers (none are sent) end with an empty line.
                while pending.range(of: lineEnd) == nil {
                    guard try fill() else { throw QuireError(.networkError, "no end of the chunked body") }
                }
                if let last = pending.range(of: lineEnd) { pending = Data(pending[last.upperBound...]) }
                return body
            }
            while pending.count < size + 2 {
                guard try fill() else { throw QuireError(.networkError, "a chunk was cut short") }
            }
            body.append(pending.prefix(size))
            pending = Data(pending.dropFirst(size + 2))
        }
    }
}
