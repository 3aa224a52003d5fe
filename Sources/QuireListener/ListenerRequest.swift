import Hummingbird
import NIOCore
import Quire
import QuireSync

/// A request as the endpoints see it: routed, with its query decoded and its body read.
struct ListenerRequest: Sendable {
    /// The method (HEAD already answered as GET).
    let method: HTTPRequest.Method
    /// The query parameters.
    let query: QueryParameters
    /// The request headers.
    let headers: HTTPFields
    /// The body bytes (empty when there was none).
    let body: [UInt8]
    /// The framework's request.
    let raw: Request
    /// The connection the request came on (nil when not known), for feeds that end when it
    /// closes.
    var connection: (any Channel)? = nil

    /// The body as JSON: 400 when empty or malformed, naming the byte offset.
    func jsonBody() throws -> JSONValue {
        guard !body.isEmpty else { throw HTTPFailure.badRequest("The request needs a JSON body") }
        do {
            // CouchDB keeps integers of any size; Quire keeps 64-bit ones, and refuses larger
            // ones rather than store a rounded double in their place.
            return try WireJSON.parse(body, exactIntegers: true)
        } catch let error as QuireError {
            throw HTTPFailure.badRequest(error.message)
        }
    }

    /// The body as a JSON object.
    func jsonObjectBody() throws -> JSONValue {
        let json = try jsonBody()
        guard json.objectMembers != nil else { throw HTTPFailure.badRequest("The request body must be a JSON object") }
        return json
    }
}
