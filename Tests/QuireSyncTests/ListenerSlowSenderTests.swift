import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// Slow senders: a request body must keep up with the listener's minimum rate (after a grace
/// period) or its connection closes, whether or not the request was answered, and a chunked
/// body holds in-flight budget for the bytes it sent, not the whole size limit. Each test
/// decides by what the server does (closes, answers, counts reserved bytes); the sockets'
/// read timeouts bound every wait.
@Suite struct ListenerSlowSenderTests {
    /// Sends one byte of `body` every 100 ms from `offset` until the connection fails or the
    /// task is cancelled.
    private func trickle(_ connection: KeepAliveConnection, _ body: Data) -> Task<Void, Never> {
        Task {
            for byte in body {
                guard !Task.isCancelled else { return }
                do {
                    try await connection.send(Data([byte]))
                    try await Task.sleep(for: .milliseconds(100))
                } catch {
                    return
                }
            }
        }
    }

    @Test func aBodyTrickledBelowTheMinimumRateClosesItsConnection() async throws {
        try await ListenerHarness.with(adjust: {
            $0.requestBodyTimeout = .seconds(1)
            $0.minimumBodyRate = 1024
            $0.idleTimeout = .seconds(600)
        }) { harness async throws in
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0, timeoutSeconds: 15)
            let body = Data(#"{"pad":"\#(String(repeating: "x", count: 500))"}"#.utf8)
            try await connection.send(
                Data("PUT /db/slow HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8))
            let sender = trickle(connection, body)
            defer { sender.cancel() }
            // 10 bytes a second against 1,024: closed about a second after the head, long
            // before the idle timeout or the socket's 15 s read timeout.
            #expect(await connection.waitForClose())
            #expect(try harness.collection.document(id: "slow") == nil)
        }
    }

    @Test func aSlowBodyAfterARefusalClosesItsConnectionToo() async throws {
        try await ListenerHarness.with(
            authenticator: ListenerPasswordAuthenticator { _, _ in false },
            adjust: {
                // Long enough that a loaded machine still answers before the body's deadline
                // closes the connection (4 s was missed once with the whole suite running on
                // two cores); the body (10 bytes a second for 100 s) misses it anyway.
                $0.requestBodyTimeout = .seconds(10)
                $0.idleTimeout = .seconds(600)
            }
        ) { harness async throws in
            let connection = try KeepAliveConnection(port: harness.listener.port ?? 0, timeoutSeconds: 15)
            let body = Data(repeating: UInt8(ascii: "x"), count: 1000)
            try await connection.send(
                Data("PUT /db/slow HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8))
            let sender = trickle(connection, body)
            defer { sender.cancel() }
            #expect(try await connection.readReply().status == 401)
            #expect(await connection.waitForClose())
        }
    }

    @Test func aChunkedBodyHoldsTheBudgetOfTheBytesItSent() async throws {
        try await ListenerHarness.with(adjust: {
            $0.maxRequestBodySize = 1_000_000
            $0.maxInFlightBodyBytes = 1_000_000
        }) { harness async throws in
            let port = harness.listener.port ?? 0
            let padding = String(repeating: "x", count: 200_000)
            let chunkedBody = Data(#"{"pad":"\#(padding)"}"#.utf8)
            let first = chunkedBody.prefix(100_000)
            let rest = chunkedBody.dropFirst(100_000)
            let chunked = try KeepAliveConnection(port: port)
            try await chunked.send(
                Data("PUT /db/chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                    + Data(String(first.count, radix: 16).utf8) + Data("\r\n".utf8) + first + Data("\r\n".utf8))
            try await eventually(timeout: 30, "the chunked body charged") {
                harness.listener.bodyBudgetUse.bytes >= 65_536
            }
            // It holds what it sent, not the whole 1,000,000-byte limit...
            #expect(harness.listener.bodyBudgetUse.bytes <= 200_000)
            // ...so a large body with a declared length fits beside it.
            let large = Data(#"{"pad":"\#(String(repeating: "y", count: 500_000))"}"#.utf8)
            let other = try KeepAliveConnection(port: port)
            #expect(try await other.request("PUT", "/db/large", body: large).status == 201)
            // The chunked body ends and is stored; the budget is free again.
            try await chunked.send(
                Data(String(rest.count, radix: 16).utf8) + Data("\r\n".utf8) + rest + Data("\r\n0\r\n\r\n".utf8))
            #expect(try await chunked.readReply().status == 201)
            #expect(try harness.collection.document(id: "chunked") != nil)
            try await eventually(timeout: 30, "the budget released") { harness.listener.bodyBudgetUse == (0, 0) }
        }
    }
}
