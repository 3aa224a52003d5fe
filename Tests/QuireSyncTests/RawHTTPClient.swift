import Foundation
import Quire
import QuireTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Sends hand-written HTTP/1.1 bytes over a loopback TCP socket and reads the whole reply
/// (the request asks the server to close). For what URLSession cannot send or read: broken
/// framing, and 401 replies (FoundationNetworking waits on their Basic challenge).
struct RawHTTPClient: Sendable {
    /// A parsed reply.
    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        var json: JSONValue { (try? JSONReader.parse(body)) ?? .null }

        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    let port: UInt16

    /// Sends `head` (request line and headers, without the blank line; `Host`, unless the
    /// head has one, and `Connection: close` are added) and `body` as is. The blocking socket calls run on a
    /// thread of their own: on Linux the cooperative pool and Dispatch's global queues share
    /// threads, and blocking those stalls the server under test.
    /// `onData`, when given, sees every byte received so far after each read, so a test can
    /// act on what a streamed reply has sent without waiting for its end. `timeoutSeconds` is
    /// a safety net, as long as `TestHTTPClient`'s: under a sanitizer beside the whole suite a
    /// listener on two cores has taken more than 10 s to answer (RELIABILITY.md, item 30).
    func send(
        _ head: String, body: Data = Data(), timeoutSeconds: Int = 60, onData: (@Sendable (Data) -> Void)? = nil
    ) async throws -> Reply {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    with: Result {
                        try exchange(head, body: body, timeoutSeconds: timeoutSeconds, onData: onData)
                    })
            }
            thread.start()
        }
    }

    private func exchange(
        _ head: String, body: Data, timeoutSeconds: Int, onData: (@Sendable (Data) -> Void)?
    ) throws -> Reply {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw QuireError(.networkError, "socket() failed") }
        defer { close(descriptor) }
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
        guard connected == 0 else { throw QuireError(.networkError, "connect() to port \(port) failed") }
        // A head naming its own Host keeps it (a test of what the server does with other names).
        let host = head.lowercased().contains("\r\nhost:") ? "" : "\r\nHost: 127.0.0.1:\(port)"
        var request = Data((head + host + "\r\nConnection: close\r\n\r\n").utf8)
        request.append(body)
        try request.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = sendRetryingInterrupts(
                    descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                guard sent > 0 else { throw QuireError(.networkError, "send() failed") }
                offset += sent
            }
        }
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = receiveRetryingInterrupts(descriptor, &chunk, chunk.count)
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw QuireError(
                    .networkError, "no reply within \(timeoutSeconds) s (\(received.count) bytes received)")
            }
            if count <= 0 { break }
            received.append(contentsOf: chunk[0..<count])
            onData?(received)
        }
        return try RawHTTPClient.parse(received)
    }

    private static func parse(_ data: Data) throws -> Reply {
        let separator = Data("\r\n\r\n".utf8)
        guard let end = data.range(of: separator) else {
            throw QuireError(
                .networkError, "the connection closed before a complete HTTP head (\(data.count) bytes)")
        }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = (lines.first ?? "").split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw QuireError(.networkError, "bad status line '\(lines.first ?? "")'")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[end.upperBound...])
        if headers.first(where: { $0.key.lowercased() == "transfer-encoding" })?.value == "chunked" {
            body = dechunk(body)
        }
        return Reply(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ data: Data) -> Data {
        var output = Data()
        var rest = data[...]
        while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText, radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            guard rest.distance(from: start, to: rest.endIndex) >= size else { break }
            let stop = rest.index(start, offsetBy: size)
            output.append(rest[start..<stop])
            rest = rest[stop...].dropFirst(2)
        }
        return output
    }
}
