import Foundation
import Hummingbird
import Quire
import QuireSync

extension ListenerResponder {
    /// The response `render` makes from document `id` of `served` (on a database thread),
    /// within the response budget when it is large.
    ///
    /// The document's stored size (every leaf's body, measured without parsing) is reserved
    /// before anything is rendered when it is over ``smallBodySize``: like request bodies,
    /// large responses wait their turn, first come first served, but only for
    /// ``URLEndpointListenerConfiguration/responseWriteTimeout``; past it they are answered
    /// with 503 and `Retry-After` rather than queueing behind clients that do not read. A
    /// rendered response larger than its reservation (attachments inline, an attachment's
    /// bytes) is charged the rest as it is, without waiting. A large response is written a
    /// piece at a time and holds its reservation until its last piece is written or the
    /// response is dropped. Small responses are answered as before, outside the budget.
    func budgeted(
        _ served: ServedCollection, id: String, render: @escaping @Sendable () throws -> Response
    ) async throws -> Response {
        let stored = try await work.read { try served.collection.storedBodyBytes(id: id) }
        let reservation = ResponseReservation(budget: responseBudget)
        if stored > ListenerResponder.smallBodySize {
            let limit = configuration.responseWriteTimeout
            guard await reservation.reserve(stored, within: limit) else {
                throw HTTPFailure.responseBudgetFull(retryAfter: Int(limit.components.seconds))
            }
        }
        let response = try await work.read(render)
        let length = response.body.contentLength ?? 0
        guard length > ListenerResponder.smallBodySize || reservation.bytes > 0 else { return response }
        reservation.grow(to: length)
        return reservation.holding(response)
    }
}
