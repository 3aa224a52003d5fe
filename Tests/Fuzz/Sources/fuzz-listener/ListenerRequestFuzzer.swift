import Foundation
import FuzzDriver
import Quire
import QuireListener
import QuireSync

#if canImport(Glibc)
    import Glibc
#endif

/// Fuzzes the listener's request handling: routing, query parameters, headers, credentials and
/// JSON bodies of every endpoint, through a real `URLEndpointListener` on loopback.
///
/// An input is a request written loosely: the first line is `METHOD TARGET`, then header
/// lines, an empty line, and the body. The harness makes it well-framed HTTP/1.1 (`Host`,
/// `Connection: close`, a correct `Content-Length`), since the framing is the HTTP library's
/// job and is tested apart; everything inside the frame is the fuzzer's. Every request must
/// get an answer within five seconds, never a 5xx, and the server must still answer `GET /`
/// afterwards.
@main
enum ListenerRequestFuzzer {
    static let port: UInt16 = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let directory = URL(fileURLWithPath: base).appendingPathComponent("quire-fuzz-listener-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        do {
            let database = try Database(name: "db", config: DatabaseConfiguration(directory: directory.path))
            let collection = try database.defaultCollection()
            try collection.save(document: MutableDocument(id: "doc", data: ["name": "Ann", "n": 1]))
            let other = try database.createCollection(name: "things", scope: "store")
            try other.save(document: MutableDocument(id: "t1", data: ["k": [1, 2, 3]]))
            var config = URLEndpointListenerConfiguration(
                collections: [collection, other], port: 0, networkInterface: "127.0.0.1",
                authenticator: ListenerPasswordAuthenticator { $0 == "peer" && $1 == "pw" })
            config.maxRequestBodySize = 1 << 20
            config.maxFeedTimeout = .milliseconds(300)
            // CORS and the access log on, so their header handling is fuzzed too.
            config.corsOrigins = ["https://app.example.com"]
            config.accessLog = ListenerAccessLog { _ in }
            let listener = URLEndpointListener(config: config)
            let started = DispatchSemaphore(value: 0)
            Task {
                do { try await listener.start() } catch { FuzzDriver.fail("cannot start the listener: \(error)") }
                started.signal()
            }
            started.wait()
            Holder.listener = listener
            return listener.port ?? 0
        } catch {
            FuzzDriver.fail("cannot set up: \(error)")
        }
    }()

    /// Keeps the listener alive for the whole run.
    enum Holder {
        nonisolated(unsafe) static var listener: URLEndpointListener?
    }

    nonisolated(unsafe) static var runs = 0
    static let authorization = "Authorization: Basic " + Data("peer:pw".utf8).base64EncodedString()

    static func main() {
        _ = port
        FuzzDriver.run { data, size in
            ListenerRequestFuzzer.test(FuzzDriver.buffer(data, size))
            return 0
        }
    }

    static func test(_ input: UnsafeRawBufferPointer) {
        let request = frame(Array(input))
        let (status, reply) = exchange(request)
        guard let status else {
            FuzzDriver.fail("no answer to:\n\(String(decoding: request.prefix(2000), as: UTF8.self))")
        }
        guard status < 500 else {
            FuzzDriver.fail(
                "\(status) for:\n\(String(decoding: request.prefix(2000), as: UTF8.self))\n\(String(decoding: reply.prefix(2000), as: UTF8.self))"
            )
        }
        runs += 1
        if runs % 64 == 0 {
            let probe = exchange(
                Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(authorization)\r\n\r\n".utf8))
            guard probe.status == 200 else {
                FuzzDriver.fail("the server stopped answering GET / (\(probe.status ?? 0))")
            }
        }
    }

    /// `METHOD TARGET\nheader\n...\n\nbody` as well-framed HTTP/1.1. The first byte chooses
    /// the credentials: good ones, none, or whatever the input's headers say.
    static func frame(_ bytes: [UInt8]) -> [UInt8] {
        let mode = bytes.first ?? 0
        let rest = bytes.dropFirst()
        let split = rest.firstRange(of: [10, 10]) ?? rest.endIndex..<rest.endIndex
        let head = String(decoding: rest[rest.startIndex..<split.lowerBound], as: UTF8.self)
        let body = Array(rest[split.upperBound...])
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = lines.isEmpty ? "GET /" : lines.removeFirst()
        let parts = first.split(separator: " ", maxSplits: 1).map(String.init)
        let method =
            parts.first.map { $0.uppercased().filter { $0 >= "A" && $0 <= "Z" } }.flatMap { $0.isEmpty ? nil : $0 }
            ?? "GET"
        let target = encodeTarget(parts.count > 1 ? parts[1] : "/")
        let reserved = ["host", "connection", "content-length", "transfer-encoding", "expect", "upgrade"]
        let headers = lines.compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].filter {
                $0.isASCII && ($0.isLetter || $0.isNumber || "!#$%&'*+-.^_`|~".contains($0))
            }
            let value = line[line.index(after: colon)...].filter {
                $0.isASCII && ($0 == "\t" || ($0 >= " " && $0 != "\u{7F}"))
            }
            guard !name.isEmpty, !reserved.contains(name.lowercased()) else { return nil }
            return "\(name): \(value.trimmingCharacters(in: .whitespaces))"
        }
        var framed = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + headers
        if mode % 3 == 0 { framed.append(authorization) }
        framed.append("Content-Length: \(body.count)")
        return Array((framed.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
    }

    /// The target with every byte a request line cannot carry percent-encoded, and a leading
    /// `/`; stray `%` signs stay, since decoding them is the listener's job.
    static func encodeTarget(_ raw: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?%".utf8)
        var target = raw.hasPrefix("/") ? "" : "/"
        for byte in raw.utf8 {
            target += allowed.contains(byte) ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }
        return target
    }

    /// Sends `request` and reads until the server closes; the status is nil when there was no
    /// answer within five seconds.
    static func exchange(_ request: [UInt8]) -> (status: Int?, reply: [UInt8]) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { FuzzDriver.fail("socket() failed") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)  // the most a first byte may take
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
        // libFuzzer's timers interrupt system calls: a connect interrupted goes on in the
        // background, so wait for it; interrupted sends and receives are retried.
        if connected != 0 {
            guard errno == EINTR || errno == EINPROGRESS || errno == EALREADY else {
                FuzzDriver.fail("cannot connect to the listener: \(String(cString: strerror(errno)))")
            }
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            while poll(&ready, 1, 5_000) < 0 && errno == EINTR {}
            var problem: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &problem, &length)
            guard ready.revents & Int16(POLLOUT) != 0, problem == 0 else {
                FuzzDriver.fail("cannot connect to the listener: \(String(cString: strerror(problem)))")
            }
        }
        var offset = 0
        while offset < request.count {
            let sent = request[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { break }
            offset += sent
        }
        // Feeds with heartbeats never end by themselves: read for at most a second after the
        // answer starts, then hang up as a replicator would.
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var answeredAt: Date?
        while answeredAt.map({ Date().timeIntervalSince($0) < 1 }) ?? true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            reply += buffer[0..<count]
            if answeredAt == nil { answeredAt = Date() }
        }
        let head = String(decoding: reply.prefix(12), as: UTF8.self)
        guard head.hasPrefix("HTTP/1."), head.count >= 12 else { return (nil, reply) }
        return (Int(head.dropFirst(9).prefix(3)), reply)
    }
}
