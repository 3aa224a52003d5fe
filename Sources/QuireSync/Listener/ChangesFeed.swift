import Hummingbird
import Quire

/// The streamed part of a longpoll or continuous `_changes` response.
///
/// Continuous: one JSON object per line as changes come, a newline every heartbeat, and
/// `{"last_seq": ...}` when the feed ends (timeout without heartbeat, `limit` reached, the
/// listener stopping). Longpoll: newlines while waiting, then one `{"results", "last_seq"}`
/// object with the first changes that come, or none at the timeout.
struct ChangesFeed: Sendable {
    let scanner: ChangesScanner
    let options: ChangesOptions
    let signal: ChangeSignal

    func run(first: (entries: [ChangesResponse.Entry], last: UInt64), writer: inout any ResponseBodyWriter) async throws {
        var entries = first.entries
        var last = first.last
        var sent = 0
        while true {
            if options.feed == .continuous {
                for entry in entries { try await writer.write(try JSONResponse.line(entry.json)) }
                sent += entries.count
                if let limit = options.limit, sent >= limit { break }
            } else if !entries.isEmpty {
                break
            }
            let outcome = await signal.wait(timeout: options.heartbeat ?? options.timeout)
            if outcome == .ended { break }
            if outcome == .timedOut {
                guard options.heartbeat != nil else { break }
                try await writer.write(ByteBuffer(bytes: [UInt8(ascii: "\n")]))
                continue
            }
            let remaining = options.limit.map { $0 - sent }
            (entries, last) = try scanner.scan(after: last, limit: remaining)
        }
        if options.feed == .continuous {
            try await writer.write(try JSONResponse.line(ChangesResponse.lastSequenceLine(ChangesSequence(last))))
        } else {
            try await writer.write(
                try JSONResponse.line(ChangesResponse(results: entries, lastSequence: ChangesSequence(last)).json))
        }
    }
}
