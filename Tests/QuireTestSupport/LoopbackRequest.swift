import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One HTTP/1.1 request as a raw-socket test server reads it from a ``LoopbackListener``
/// connection: the request line, the header fields and a body of `Content-Length` bytes.
package struct LoopbackRequest: Sendable {
    /// The method, as sent.
    package let method: String
    /// The request target (path and query), as sent.
    package let target: String
    /// Header fields by lowercased name.
    package let headers: [String: String]
    /// The body (empty without `Content-Length`).
    package let body: Data

    /// The path of ``target`` without its query.
    package var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }

    /// The query of ``target`` (after `?`), empty when there is none.
    package var query: String {
        let pieces = target.split(separator: "?", maxSplits: 1)
        return pieces.count > 1 ? String(pieces[1]) : ""
    }

    /// Reads a request from `connection`; nil when the client closes first or sends no request line.
    package static func receive(from connection: Int32) -> LoopbackRequest? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let separator = Data("\r\n\r\n".utf8)
        var headEnd: Range<Data.Index>?
        while headEnd == nil {
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            headEnd = buffer.range(of: separator)
        }
        guard let headEnd, let head = String(data: buffer[..<headEnd.lowerBound], encoding: .utf8) else { return nil }
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let pair = line.split(separator: ":", maxSplits: 1)
            if pair.count == 2 { headers[pair[0].lowercased()] = pair[1].trimmingCharacters(in: .whitespaces) }
        }
        var body = Data(buffer[headEnd.upperBound...])
        let length = Int(headers["content-length"] ?? "") ?? 0
        while body.count < length {
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { return nil }
            body.append(contentsOf: chunk[0..<count])
        }
        return LoopbackRequest(method: String(parts[0]), target: String(parts[1]), headers: headers, body: body)
    }

    /// Writes all of `data` to `connection`, stopping early if the connection fails.
    package static func send(_ data: Data, to connection: Int32) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(connection, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
