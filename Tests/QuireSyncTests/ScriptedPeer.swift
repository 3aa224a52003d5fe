import Foundation
import Quire
import QuireTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for unit tests: each request goes to a handler that
/// scripts the answer, which lets a test play a broken or hostile peer. One request per
/// connection (`Connection: close`).
final class ScriptedPeer: Sendable {
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

    /// `http://127.0.0.1:<port>/<name>`.
    func url(_ name: String = "db") -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(name)") ?? URL(fileURLWithPath: "/")
    }

    /// The requests received so far.
    var requests: [Request] { log.withLock { $0 } }

    func stop() { listener.stop() }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let received = LoopbackRequest.receive(from: connection) else { return }
        let request = Request(
            method: received.method, path: received.path, query: received.query, body: received.body)
        log.withLock { $0.append(request) }
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
        LoopbackRequest.send(response, to: connection)
    }
}
