import Foundation
import Hummingbird
import NIOCore
import Quire
import QuireSync

/// A JSON response whose rows are rendered and written a batch at a time, as CouchDB streams
/// `_all_docs` and `_bulk_get`: the response is never built whole, so a request naming a
/// large document many times costs one batch of memory, not the sum of its rows.
///
/// Rows are rendered on the database threads in batches of about ``batchBytes`` (a row larger
/// than that is a batch of its own). Each batch holds room in the listener's response budget
/// (``ResponseStreaming/budget``) from before it is rendered until the socket has taken it, so
/// the bytes of all streamed responses in flight are bounded across the server, and a client
/// that does not read holds one batch, not its whole answer (the write waits for the socket
/// to drain). The first batch is rendered before the response starts, so a failure there is
/// answered with an error status; a later failure ends the response early (the connection
/// closes, so the client sees an incomplete body rather than a wrong one).
struct StreamedRows: Sendable {
    /// The JSON text before the first row, such as `{"total_rows":3,"offset":0,"rows":[`.
    let head: String
    /// The JSON text after the last row, such as `]}`.
    let tail: String
    /// The number of rows.
    let count: Int
    /// Renders row `index` (on a database thread).
    let row: @Sendable (Int) throws -> JSONValue

    /// The bytes rendered before a batch is written.
    static let batchBytes = 256 * 1024

    /// The response: streamed with `streaming`, or built whole without it (as for a caller
    /// outside a listener).
    func response(_ streaming: ResponseStreaming?) throws -> Response {
        let headers: HTTPFields = [.contentType: "application/json"]
        guard let streaming else {
            var bytes = Array(head.utf8)
            _ = try render(from: 0, into: &bytes, limit: .max)
            bytes += Array(tail.utf8) + [UInt8(ascii: "\n")]
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        var rendered = Array(head.utf8)
        let next = try render(from: 0, into: &rendered, limit: StreamedRows.batchBytes)
        let first = rendered
        let rows = self
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await streaming.write(first, to: &writer)
                var index = next
                while index < rows.count {
                    let start = index
                    // The batch's room is held while it is rendered and given back once,
                    // before the write (which reserves the bytes it sends): a failed write,
                    // a client gone, must not give it back a second time.
                    let reserved = try await streaming.budget.reserve(StreamedRows.batchBytes)
                    let batch: (bytes: [UInt8], end: Int)
                    do {
                        batch = try await streaming.work.read {
                            var bytes: [UInt8] = []
                            let end = try rows.render(from: start, into: &bytes, limit: StreamedRows.batchBytes)
                            return (bytes, end)
                        }
                    } catch {
                        streaming.budget.release(reserved)
                        throw error
                    }
                    streaming.budget.release(reserved)
                    try await streaming.write(batch.bytes, to: &writer)
                    index = batch.end
                }
                try await streaming.write(Array(rows.tail.utf8) + [UInt8(ascii: "\n")], to: &writer)
                try await writer.finish(nil)
            })
    }

    /// Appends rows from `start` (each after a comma but the first) until `bytes` has grown
    /// by `limit` or more; returns the index of the first row not rendered.
    private func render(from start: Int, into bytes: inout [UInt8], limit: Int) throws -> Int {
        let startSize = bytes.count
        var index = start
        while index < count, bytes.count - startSize < limit {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += try WireJSON.bytes(try row(index))
            index += 1
        }
        return index
    }
}

/// What a streamed response needs from its listener: the database threads that render rows
/// and the budget bounding the bytes of all streamed responses in flight.
struct ResponseStreaming: Sendable {
    let work: DatabaseWork
    let budget: RequestBodyBudget

    /// Writes `bytes` once room for them is reserved, holding it until the socket has taken
    /// them (the writer waits while the client does not read).
    func write(_ bytes: [UInt8], to writer: inout any ResponseBodyWriter) async throws {
        let reserved = try await budget.reserve(bytes.count)
        defer { budget.release(reserved) }
        try await writer.write(ByteBuffer(bytes: bytes))
    }
}
