import Foundation
import QuireTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Many loopback HTTP exchanges at once from one thread: non-blocking sockets driven by
/// `poll`, so a thousand requests are really in flight together without a thousand threads.
///
/// Each exchange connects, sends its bytes (all at once, or a byte at a time for a slow
/// client), and reads until the server closes. Nothing is interpreted beyond the
/// status line; a connection the server resets or closes without a reply has no status.
struct LoadClient {
    /// One request to make.
    struct Exchange: Sendable {
        var bytes: [UInt8]
        /// Seconds between bytes; 0 sends everything at once.
        var byteInterval: Double = 0
        /// Stop after sending this many bytes and keep the connection open, silent, until
        /// `holdSeconds` pass (a client that never finishes its request).
        var sendLimit: Int?
        var holdSeconds: Double = 0

        /// A request with `Connection: close` and, when given, Basic credentials and a body.
        static func http(
            _ method: String, _ path: String, credentials: (String, String)? = nil, body: String? = nil,
            headers: [String] = []
        ) -> Exchange {
            var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + headers
            if let (user, password) = credentials {
                lines.append("Authorization: Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
            }
            if let body {
                lines += ["Content-Type: application/json", "Content-Length: \(body.utf8.count)"]
            }
            return Exchange(bytes: Array((lines.joined(separator: "\r\n") + "\r\n\r\n" + (body ?? "")).utf8))
        }
    }

    /// What came back.
    struct Outcome: Sendable {
        var status: Int?
        var response: [UInt8] = []
        var error: String?
        /// Seconds from the start of the run to the end of this exchange.
        var finishedAfter: Double = 0

        var text: String { String(decoding: response, as: UTF8.self) }
    }

    let port: UInt16

    /// Runs every exchange at once and returns their outcomes in order; exchanges still open
    /// after `timeoutSeconds` end with the error "timed out".
    func run(_ exchanges: [Exchange], timeoutSeconds: Double = 60) -> [Outcome] {
        enum Phase { case connecting, sending, holding, receiving, done }
        struct Connection {
            var descriptor: Int32
            var phase: Phase = .connecting
            var sent = 0
            var nextByteAt = 0.0
            var holdUntil = 0.0
        }
        let start = Date()
        func now() -> Double { Date().timeIntervalSince(start) }
        var outcomes = [Outcome](repeating: Outcome(), count: exchanges.count)
        var connections: [Connection] = exchanges.map { _ in Connection(descriptor: -1) }

        for index in exchanges.indices {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard descriptor >= 0 else {
                outcomes[index].error = "socket: \(String(cString: strerror(errno)))"
                connections[index].phase = .done
                continue
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            connections[index].descriptor = descriptor
            if result != 0 && errno != EINPROGRESS {
                outcomes[index].error = "connect: \(String(cString: strerror(errno)))"
                close(descriptor)
                connections[index].phase = .done
            }
        }

        func finish(_ index: Int, error: String? = nil) {
            if let error, outcomes[index].error == nil { outcomes[index].error = error }
            close(connections[index].descriptor)
            connections[index].phase = .done
            outcomes[index].finishedAfter = now()
            let head = String(decoding: outcomes[index].response.prefix(12), as: UTF8.self)
            if head.hasPrefix("HTTP/1."), head.count >= 12 {
                outcomes[index].status = Int(head.dropFirst(9).prefix(3))
            }
        }

        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while connections.contains(where: { $0.phase != .done }) {
            let time = now()
            if time > timeoutSeconds {
                for index in connections.indices where connections[index].phase != .done {
                    finish(index, error: "timed out")
                }
                break
            }
            var polled: [pollfd] = []
            var owners: [Int] = []
            for (index, connection) in connections.enumerated() {
                switch connection.phase {
                case .connecting:
                    polled.append(pollfd(fd: connection.descriptor, events: Int16(POLLOUT), revents: 0))
                case .sending where connection.nextByteAt <= time:
                    polled.append(pollfd(fd: connection.descriptor, events: Int16(POLLOUT), revents: 0))
                case .holding where connection.holdUntil <= time:
                    finish(index, error: "held open, then closed by the client")
                    continue
                case .receiving, .holding:
                    polled.append(pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0))
                default:
                    continue
                }
                owners.append(index)
            }
            if polled.isEmpty {
                usleep(2_000)
                continue
            }
            let ready = poll(&polled, nfds_t(polled.count), 10)
            if ready <= 0 { continue }
            for (slot, index) in owners.enumerated() where polled[slot].revents != 0 {
                let descriptor = connections[index].descriptor
                let exchange = exchanges[index]
                switch connections[index].phase {
                case .connecting:
                    var problem: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &problem, &length)
                    if problem != 0 {
                        finish(index, error: "connect: \(String(cString: strerror(problem)))")
                    } else {
                        connections[index].phase = .sending
                    }
                case .sending:
                    let limit = min(exchange.sendLimit ?? exchange.bytes.count, exchange.bytes.count)
                    let end = exchange.byteInterval > 0 ? min(connections[index].sent + 1, limit) : limit
                    let count = exchange.bytes[connections[index].sent..<end].withUnsafeBytes {
                        send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    if count < 0 {
                        if errno == EAGAIN { break }
                        // The server may answer and close before a bad request is fully sent.
                        connections[index].phase = .receiving
                        break
                    }
                    connections[index].sent += count
                    connections[index].nextByteAt = now() + exchange.byteInterval
                    if connections[index].sent >= limit {
                        if exchange.sendLimit != nil {
                            connections[index].phase = .holding
                            connections[index].holdUntil = now() + exchange.holdSeconds
                        } else {
                            // No half-close: servers may drop a request whose client has
                            // closed its side, as many do. `Connection: close` ends the reply.
                            connections[index].phase = .receiving
                        }
                    }
                case .receiving, .holding:
                    let count = receiveRetryingInterrupts(descriptor, &buffer, buffer.count)
                    if count > 0 {
                        outcomes[index].response += buffer[0..<count]
                    } else if count == 0 {
                        finish(index)
                    } else if errno != EAGAIN {
                        finish(index, error: "recv: \(String(cString: strerror(errno)))")
                    }
                case .done:
                    break
                }
            }
        }
        return outcomes
    }
}
