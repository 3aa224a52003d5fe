import Foundation
import Quire
import QuireTestSupport
import Testing

@testable import QuireListener
@testable import QuireSync

#if canImport(Glibc)
    import Glibc
#endif

/// Stopping a listener while clients connect, reconnect, send requests and follow feeds must
/// end every connection cleanly. It used to stop the whole process now and then ("Deinited
/// NIOAsyncWriter without calling finish()"), so a failure here shows as a crashed run.
@Suite(.serialized) struct ListenerShutdownStressTests {
    @Test func stoppingUnderReconnectingClientsNeverCrashes() async throws {
        for round in 0..<30 {
            try await ListenerHarness.with { harness async throws in
                let port = try #require(harness.listener.port)
                let clients = ReconnectingClients(port: port, count: 8)
                clients.start()
                // Let the clients get going: feeds open, some woken by a write. Under a
                // sanitizer's slowdown the first exchange may take longer than the pause.
                try await Task.sleep(for: .milliseconds(40 + (round % 5) * 30))
                try await eventually("a client got through in round \(round)") { clients.exchanges > 0 }
                try harness.save("round-\(round)", #"{"round": \#(round)}"#)
                try await Task.sleep(for: .milliseconds(20 + (round % 3) * 25))

                let clock = ContinuousClock()
                let started = clock.now
                await harness.listener.stop()
                let took = clock.now - started
                // stop() waits at most the grace period for open connections; the bound only
                // catches a stop that hangs, with room for a loaded or sanitized run.
                #expect(
                    took < URLEndpointListener.shutdownGracePeriod + .seconds(25),
                    "stop() took \(took) in round \(round)")
                #expect(harness.listener.port == nil)
                #expect(harness.listener.activeFeedCount == 0)
                await clients.stop()
            }
        }
    }

    @Test func stopEndsOpenFeedsWithTheirLastLine() async throws {
        try await ListenerHarness.with { harness async throws in
            let port = try #require(harness.listener.port)
            let client = RawHTTPClient(port: port)
            async let continuous = client.send(
                "GET /db/_changes?feed=continuous&since=now&heartbeat=1000 HTTP/1.1", timeoutSeconds: 20)
            async let longpoll = client.send("GET /db/_changes?feed=longpoll&since=now HTTP/1.1", timeoutSeconds: 20)
            try await eventually("both feeds open") { harness.listener.activeFeedCount == 2 }
            await harness.listener.stop()
            let (feed, poll) = try await (continuous, longpoll)
            #expect(feed.status == 200)
            #expect(String(decoding: feed.body, as: UTF8.self).contains("\"last_seq\""))
            #expect(poll.status == 200)
            #expect(poll.json["results"] == .array([]))
        }
    }
}

/// Client threads that talk to a listener in a tight loop until stopped: each connects, sends
/// one of a few requests (feeds among them), reads a little of the reply and hangs up, or
/// hangs up at once. Blocking sockets on threads of their own, so the server's threads stay free.
private final class ReconnectingClients: @unchecked Sendable {
    private let port: UInt16
    private let count: Int
    private let lock = NSLock()
    private var stopping = false
    private var running = 0
    private var completed = 0
    private var finished: [CheckedContinuation<Void, Never>] = []

    init(port: UInt16, count: Int) {
        self.port = port
        self.count = count
    }

    /// Replies read in full or in part.
    var exchanges: Int { lock.withLock { completed } }

    func start() {
        lock.withLock { running = count }
        for index in 0..<count {
            let thread = Thread { [self] in
                var step = index
                while !lock.withLock({ stopping }) {
                    if exchange(step) { lock.withLock { completed += 1 } }
                    step += 1
                }
                let waiters: [CheckedContinuation<Void, Never>] = lock.withLock {
                    running -= 1
                    guard running == 0 else { return [] }
                    defer { finished = [] }
                    return finished
                }
                waiters.forEach { $0.resume() }
            }
            thread.start()
        }
    }

    /// Stops every client and waits for their threads to end.
    func stop() async {
        await withCheckedContinuation { continuation in
            let done = lock.withLock {
                stopping = true
                if running == 0 { return true }
                finished.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// One connection; whether any reply came back.
    private func exchange(_ step: Int) -> Bool {
        let requests = [
            "GET /db/_changes?feed=longpoll&since=now&timeout=5000 HTTP/1.1\r\n",
            "GET /db/_changes?feed=continuous&since=0&heartbeat=50 HTTP/1.1\r\n",
            "GET /db HTTP/1.1\r\n",
            "POST /db/_changes HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 33\r\n",
            "",  // connect and hang up
            "GET /db/_all_docs HTTP/1.1\r\n",
        ]
        let request = requests[step % requests.count]
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        // Short reads keep the clients churning; until one reply has come back they wait up
        // to 2 s, so a sanitizer's slowdown on a loaded machine cannot starve every exchange.
        let waitedForFirst = lock.withLock { completed == 0 }
        var timeout = waitedForFirst ? timeval(tv_sec: 2, tv_usec: 0) : timeval(tv_sec: 0, tv_usec: 150_000)
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
            usleep(1_000)
            return false
        }
        guard !request.isEmpty else { return false }
        var bytes = Array((request + "Host: 127.0.0.1:\(port)\r\n\r\n").utf8)
        if request.hasPrefix("POST") { bytes += Array(#"{"feed":"longpoll","since":"now"}"#.utf8) }
        guard send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Read a little (or until the reply ends), then hang up mid-reply.
        var received = 0
        for _ in 0..<(1 + step % 3) {
            let read = receiveRetryingInterrupts(descriptor, &buffer, buffer.count)
            if read <= 0 { break }
            received += read
        }
        return received > 0
    }
}
