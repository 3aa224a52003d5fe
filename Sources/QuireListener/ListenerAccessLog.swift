import Foundation
import Hummingbird
import Quire
import QuireSync

/// Where a ``URLEndpointListener`` writes its access log: one line per request in Common
/// Log Format, written when the response has been sent.
///
/// ```
/// 127.0.0.1 - sync [25/Nov/2026:13:02:08 +0000] "GET /db/_changes?feed=longpoll HTTP/1.1" 200 1234
/// ```
///
/// The fields are the client's address, `-`, the Basic user name (or `-`), the time the
/// request arrived, the request line, the status and the body bytes sent (`-` for none).
public struct ListenerAccessLog: Sendable {
    private let sink: @Sendable (String) -> Void

    /// A log handing each line (ending in a newline) to `write`, possibly from several
    /// threads at once.
    public init(_ write: @escaping @Sendable (_ line: String) -> Void) {
        sink = write
    }

    /// A log appending to `handle` (a file opened for writing, or standard output).
    public init(fileHandle handle: FileHandle) {
        // One line at a time, whole: writes from several threads would interleave.
        let writing = Locked()
        self.init { line in
            writing.withLock { handle.write(Data(line.utf8)) }
        }
    }

    /// The line for one request, newline included.
    static func line(
        client: String?, user: String?, time: Date, method: String, target: String, status: Int, bytes: Int?
    ) -> String {
        let size = bytes.map { $0 > 0 ? String($0) : "-" } ?? "-"
        return
            "\(client ?? "-") - \(user.map(sanitized) ?? "-") [\(timestamp(time))] \"\(method) \(sanitized(target)) HTTP/1.1\" \(status) \(size)\n"
    }

    func write(_ line: String) {
        sink(line)
    }

    /// `response` with a body that, once sent (or cut short), writes the line `make` builds
    /// from the bytes sent.
    func recording(_ response: Response, _ make: @escaping @Sendable (_ bytes: Int) -> String) -> Response {
        var response = response
        let body = response.body
        let sink = self.sink
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            let tally = ByteTally()
            do {
                try await body.write(CountingWriter(base: writer, tally: tally))
            } catch {
                sink(make(tally.count))
                throw error
            }
            sink(make(tally.count))
        }
        return response
    }

    /// A user name with spaces, quotes and control characters escaped, so a line stays one
    /// line of space-separated fields whatever a client sends.
    private static func sanitized(_ user: String) -> String {
        var out = ""
        for scalar in user.unicodeScalars {
            if scalar.value <= 0x20 || scalar.value == 0x7F || scalar == "\"" || scalar == "\\" {
                out += String(format: "\\x%02X", scalar.value & 0xFF)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out.isEmpty ? "-" : out
    }

    /// `25/Nov/2026:13:02:08 +0000`.
    private static func timestamp(_ time: Date) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: time)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let month = months[max(0, min(11, (parts.month ?? 1) - 1))]
        return
            "\(two(parts.day))/\(month)/\(parts.year ?? 0):\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }
}

/// Bytes written so far by a ``CountingWriter``.
private final class ByteTally: Sendable {
    private let total = Locked(0)

    var count: Int { total.withLock { $0 } }

    func add(_ bytes: Int) { total.withLock { $0 += bytes } }
}

/// A response body writer that counts the bytes it passes on.
private struct CountingWriter: ResponseBodyWriter {
    var base: any ResponseBodyWriter
    let tally: ByteTally

    mutating func write(_ buffer: ByteBuffer) async throws {
        tally.add(buffer.readableBytes)
        try await base.write(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await base.finish(trailingHeaders)
    }
}
