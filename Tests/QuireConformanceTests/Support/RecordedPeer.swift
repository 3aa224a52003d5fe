import Foundation
import Quire
import QuireTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private enum Socket {
    #if canImport(Glibc)
        static let stream = Int32(SOCK_STREAM.rawValue)
        static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        static let stream = SOCK_STREAM
        static let sendFlags: Int32 = 0
    #endif
}

/// A loopback HTTP peer that replays a recorded exchange: it expects the script's requests in
/// order and answers each with the recorded response. A request that differs from the one
/// recorded (method, path, a header value, a body member) is answered as a real test server
/// answers a request it cannot take, `500 TESTSERVER`, and noted in ``mismatches``.
///
/// Plain POSIX sockets on threads of its own: the engine under test blocks on its answers, so
/// nothing here may wait on Swift concurrency's pool. Every wait is bounded (socket
/// timeouts), so a peer the engine stops talking to never hangs a test.
final class RecordedPeer: Sendable {
    /// One recorded request and the answer the server gave it.
    struct Exchange: Sendable {
        let method: String
        let path: String
        /// Header values the request must carry (names case-insensitive).
        let headers: [String: String]
        /// Members the request's JSON body must have; the string `"*"` matches any value.
        let body: [String: JSONValue]?
        let status: Int
        let response: String?

        init(
            _ method: String, _ path: String, headers: [String: String] = [:], body: [String: JSONValue]? = nil,
            status: Int = 200, response: String? = nil
        ) {
            (self.method, self.path, self.headers, self.body) = (method, path, headers, body)
            (self.status, self.response) = (status, response)
        }
    }

    private struct State {
        var next = 0
        var mismatches: [String] = []
    }

    let port: Int
    private let script: [Exchange]
    private let listener: LoopbackListener
    private let state = Locked(State())
    private let stopped = Locked(false)

    /// Starts listening on a free loopback port.
    init(script: [Exchange]) throws {
        self.script = script
        listener = try LoopbackListener(backlog: 8)
        port = Int(listener.port)
        listener.start { [weak self] connection in
            guard let self else {
                close(connection)
                return
            }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            serve(connection)
        }
    }

    /// What differed from the recording, and requests that came after it ended.
    var mismatches: [String] { state.withLock { $0.mismatches } }
    /// Whether every recorded request was made.
    var isFinished: Bool { state.withLock { $0.next == script.count } }

    /// Stops accepting; connections end within their read timeout.
    func stop() {
        stopped.withLock { $0 = true }
        listener.stop()
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffer: [UInt8] = []
        while !stopped.withLock({ $0 }) {
            guard let (head, body) = readRequest(connection, &buffer) else { return }
            let (status, text) = answer(head: head, body: body)
            let bytes = Array(text.utf8)
            var response = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\n"
            response += "CBLTest-Server-ID: 5c0e1b7e-0000-4000-8000-recordedpeer\r\n"
            response += "CBLTest-API-Version: \(script.first?.headers["CBLTest-API-Version"] ?? "2")\r\n"
            response += "Content-Type: application/json\r\nContent-Length: \(bytes.count)\r\n\r\n"
            let all = Array(response.utf8) + bytes
            let sent = all.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Socket.sendFlags) }
            guard sent == all.count else { return }
        }
    }

    /// Reads one request: its head (request line and headers) and body.
    private func readRequest(_ connection: Int32, _ buffer: inout [UInt8]) -> (String, Data)? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var expected = 0
        var continued = false
        while true {
            if headEnd == nil, let range = buffer.firstRange(of: separator) {
                headEnd = range.upperBound
                let head = String(decoding: buffer[..<range.lowerBound], as: UTF8.self).lowercased()
                for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    expected = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
                if head.contains("expect: 100-continue"), !continued {
                    continued = true
                    let reply = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
                    _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Socket.sendFlags) }
                }
            }
            if let end = headEnd, buffer.count >= end + expected {
                let head = String(decoding: buffer[..<(end - 4)], as: UTF8.self)
                let body = Data(buffer[end..<(end + expected)])
                buffer.removeFirst(end + expected)
                return (head, body)
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { receiveRetryingInterrupts(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    /// Checks a request against the next recorded one and returns the recorded answer.
    private func answer(head: String, body: Data) -> (Int, String) {
        let lines = head.split(separator: "\r\n").map(String.init)
        let requestLine = lines.first?.split(separator: " ").map(String.init) ?? []
        let (method, path) = (requestLine.first ?? "", requestLine.count > 1 ? requestLine[1] : "")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return state.withLock { state in
            guard state.next < script.count else {
                state.mismatches.append("\(method) \(path) after the recording ended")
                return (500, Self.refusal("no more requests were recorded"))
            }
            let recorded = script[state.next]
            var problems: [String] = []
            if recorded.method != method || recorded.path != path {
                problems.append("\(method) \(path) where the recording has \(recorded.method) \(recorded.path)")
            }
            for (name, value) in recorded.headers where headers[name.lowercased()] != value {
                problems.append("header \(name) is \(headers[name.lowercased()] ?? "missing"), recorded \(value)")
            }
            if let members = recorded.body {
                let sent = (try? JSONReader.parse(body))?.objectValue ?? [:]
                for (key, value) in members where !(value == .string("*") ? sent[key] != nil : sent[key] == value) {
                    problems.append("\(path) body member '\(key)' is \(sent[key].map { "\($0)" } ?? "missing")")
                }
            }
            guard problems.isEmpty else {
                state.mismatches += problems
                // What a version 1 server answers a request it cannot take.
                return (500, Self.refusal(problems.joined(separator: "; ")))
            }
            state.next += 1
            return (recorded.status, recorded.response ?? "")
        }
    }

    private static func refusal(_ message: String) -> String {
        let text = message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return #"{"domain":"TESTSERVER","code":500,"message":"\#(text)"}"#
    }
}
