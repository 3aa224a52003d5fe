import Quire

/// What an endpoint answers: a status and a JSON body, or no body (a plain 200).
package struct TestServerResponse: Sendable, Equatable {
    /// The HTTP status.
    package var status: Int
    /// The JSON body; nil for none.
    package var body: JSONValue?

    /// A response with `status` and `body`.
    package init(status: Int, body: JSONValue?) {
        self.status = status
        self.body = body
    }

    /// 200 with no body.
    static let ok = TestServerResponse(status: 200, body: nil)

    /// 200 with `body`.
    static func json(_ body: JSONValue) -> TestServerResponse { TestServerResponse(status: 200, body: body) }

    /// The error's status and error object.
    static func failure(_ error: TestServerError) -> TestServerResponse {
        TestServerResponse(status: error.status, body: error.body)
    }
}
