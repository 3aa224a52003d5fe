import CZlib
import Hummingbird

/// Undoes a request body's `Content-Encoding`, as CouchDB does: `gzip` (the IBM Cloudant SDK
/// gzips every body by default) and `identity`; any other coding is 415.
///
/// The size limit applies to the decoded bytes, so a small compressed body cannot inflate
/// past it: inflating stops, with 413, at the first byte beyond.
enum RequestBodyDecoder {
    /// The coding `headers` name: nil for none (or `identity`), `gzip`; 415 for any other.
    static func coding(_ headers: HTTPFields) throws -> String? {
        guard let header = headers[.contentEncoding] else { return nil }
        let coding = header.trimmingCharacters(in: .whitespaces).lowercased()
        switch coding {
        case "", "identity": return nil
        case "gzip", "x-gzip": return "gzip"
        default:
            throw HTTPFailure(
                status: .unsupportedMediaType, error: "unsupported_media_type",
                reason: "Content-Encoding '\(header.prefix(80))' is not supported: send gzip or identity.")
        }
    }

    /// `bytes` decoded as `headers` say; 400 for a body that is not valid gzip, 413 when the
    /// decoded body is larger than `limit`.
    static func decode(_ bytes: [UInt8], headers: HTTPFields, limit: Int) throws -> [UInt8] {
        guard try coding(headers) != nil, !bytes.isEmpty else { return bytes }
        return try gunzip(bytes, limit: limit)
    }

    /// The bytes of the gzip members in `compressed` (concatenated members are one body, as
    /// `gunzip` reads them), at most `limit` of them.
    static func gunzip(_ compressed: [UInt8], limit: Int) throws -> [UInt8] {
        var output: [UInt8] = []
        var offset = 0
        while offset < compressed.count {
            offset += try inflateMember(compressed, from: offset, into: &output, limit: limit)
        }
        return output
    }

    /// Inflates the gzip member starting at `offset`, appending to `output`; returns the
    /// compressed bytes it took.
    private static func inflateMember(
        _ compressed: [UInt8], from offset: Int, into output: inout [UInt8], limit: Int
    ) throws -> Int {
        var stream = z_stream()
        guard quire_inflate_init_gzip(&stream) == Z_OK else {
            throw HTTPFailure(
                status: .internalServerError, error: "internal_server_error", reason: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        let chunkSize = 64 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        return try compressed.withUnsafeBufferPointer { input in
            guard let base = input.baseAddress else { return 0 }
            stream.next_in = UnsafeMutablePointer(mutating: base + offset)
            stream.avail_in = uInt(input.count - offset)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(chunkSize)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunkSize - Int(stream.avail_out)
                guard output.count + produced <= limit else { throw HTTPFailure.tooLarge(limit: limit) }
                output.append(contentsOf: chunk[..<produced])
                switch status {
                case Z_STREAM_END:
                    return input.count - offset - Int(stream.avail_in)
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    throw HTTPFailure.badRequest("The gzip request body is truncated.")
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    throw HTTPFailure.badRequest("The request body is not valid gzip: \(message)")
                }
            }
        }
    }
}
