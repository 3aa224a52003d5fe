import Hummingbird
import Quire
import QuireSync

/// The streamed part of a longpoll or continuous `_changes` response.
///
/// Continuous: one JSON object per line as changes come, a newline every heartbeat, and
/// `{"last_seq": ...}` when the feed ends (timeout without heartbeat, `limit` reached, the
/// listener stopping). Longpoll: newlines while waiting, then one `{"results", "last_seq"}`
/// object with the first changes that come, or none at the timeout. Eventsource: as
/// continuous, each change as a Server-Sent Event (`data: <change>` and `id: <seq>`), each
/// heartbeat as an `event: heartbeat`, and no `last_seq` at the end.
struct ChangesFeed: Sendable {
    let scanner: ChangesScanner
    let options: ChangesOptions
    let signal: ChangeSignal
    /// Where the scans run (see ``DatabaseWork``).
    let work: DatabaseWork

    /// A change as the feed writes it: a JSON line, or a Server-Sent Event.
    private func line(_ entry: ChangesResponse.Entry) throws -> ByteBuffer {
        guard options.feed == .eventsource else { return try JSONResponse.line(entry.json) }
        var bytes = Array("data: ".utf8)
        bytes += try JSONResponse.line(entry.json).readableBytesView
        bytes += Array("id: ".utf8)
        bytes += try JSONResponse.line(entry.json["seq"] ?? .null).readableBytesView
        bytes += [UInt8(ascii: "\n")]
        return ByteBuffer(bytes: bytes)
    }

    func run(first: (entries: [ChangesResponse.Entry], last: UInt64), writer: inout any ResponseBodyWriter) async throws
    {
        var entries = first.entries
        var last = first.last
        var sent = 0
        while true {
            if options.feed == .continuous || options.feed == .eventsource {
                for entry in entries { try await writer.write(try line(entry)) }
                sent += entries.count
                // Written once: a heartbeat next comes back here with nothing new to send.
                entries = []
                if let limit = options.limit, sent >= limit { break }
            } else if !entries.isEmpty {
                break
            }
            let outcome = await signal.wait(timeout: options.heartbeat ?? options.timeout)
            if outcome == .ended { break }
            if outcome == .timedOut {
                guard options.heartbeat != nil else { break }
                let beat = options.feed == .eventsource ? "event: heartbeat\ndata: \n\n" : "\n"
                try await writer.write(ByteBuffer(bytes: Array(beat.utf8)))
                continue
            }
            let remaining = options.limit.map { $0 - sent }
            (entries, last) = try await work.read { [last] in try scanner.scan(after: last, limit: remaining) }
        }
        if options.feed == .eventsource {
            return
        } else if options.feed == .continuous {
            try await writer.write(try JSONResponse.line(ChangesResponse.lastSequenceLine(ChangesSequence(last))))
        } else {
            try await writer.write(
                try JSONResponse.line(ChangesResponse(results: entries, lastSequence: ChangesSequence(last)).json))
        }
    }
}
