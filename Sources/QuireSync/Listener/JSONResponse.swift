import Hummingbird
import Quire

/// Responses with JSON bodies.
enum JSONResponse {
    /// `value` as compact JSON followed by a newline, as CouchDB writes it.
    static func make(_ status: HTTPResponse.Status = .ok, _ value: JSONValue, headers: HTTPFields = [:]) -> Response {
        var bytes = (try? JSONWriter.bytes(value, sortedKeys: false)) ?? Array("null".utf8)
        bytes.append(UInt8(ascii: "\n"))
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The error response for `failure`.
    static func failure(_ failure: HTTPFailure) -> Response {
        make(failure.status, failure.json, headers: failure.headers)
    }

    /// One JSON value and a newline, for streamed feeds.
    static func line(_ value: JSONValue) -> ByteBuffer {
        var bytes = (try? JSONWriter.bytes(value, sortedKeys: false)) ?? Array("null".utf8)
        bytes.append(UInt8(ascii: "\n"))
        return ByteBuffer(bytes: bytes)
    }
}
