import Foundation
import Hummingbird
import Quire
import QuireSync

/// Responses with JSON bodies.
enum JSONResponse {
    /// `value` as compact JSON followed by a newline, as CouchDB writes it. Messages may
    /// wrap documents as deep as the store accepts (see ``WireJSON``). A value that still
    /// cannot be written (which no stored document should make) is logged and answered with
    /// a 500 and CouchDB's error object, never with a `200 null`.
    static func make(_ status: HTTPResponse.Status = .ok, _ value: JSONValue, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        var bytes: [UInt8]
        do {
            bytes = try WireJSON.bytes(value)
        } catch {
            let reason = "The response could not be written as JSON: \((error as? QuireError)?.message ?? "\(error)")"
            JSONResponse.log(reason)
            let failure = HTTPFailure(status: .internalServerError, error: "internal_server_error", reason: reason)
            bytes = (try? WireJSON.bytes(failure.json)) ?? Array(#"{"error":"internal_server_error"}"#.utf8)
            return Response(
                status: failure.status, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes + [UInt8(ascii: "\n")])))
        }
        bytes.append(UInt8(ascii: "\n"))
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The error response for `failure`.
    static func failure(_ failure: HTTPFailure) -> Response {
        make(failure.status, failure.json, headers: failure.headers)
    }

    /// One JSON value and a newline, for streamed feeds; a value that cannot be written
    /// throws, which ends the feed (its client sees the connection close, not a `null`).
    static func line(_ value: JSONValue) throws -> ByteBuffer {
        var bytes = try WireJSON.bytes(value)
        bytes.append(UInt8(ascii: "\n"))
        return ByteBuffer(bytes: bytes)
    }

    /// Reports a response that could not be written, as an error of the listener's log domain
    /// (on standard error unless the app changed ``LogSinks``).
    private static func log(_ message: String) {
        Log.write(.listener, .error, message)
    }
}
