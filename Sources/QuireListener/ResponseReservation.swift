import Foundation
import Hummingbird
import NIOCore
import Quire

/// Room held in the listener's response budget for one response rendered whole (a document,
/// a revision list, an attachment): taken before the response is rendered, given back once
/// its last piece has been written, or when the response is dropped unwritten (the
/// connection closed first, a `HEAD`, a failure): whichever comes first, once.
///
/// The response is written ``pieceBytes`` at a time, each waiting until the socket has room
/// for it, so a client that does not read holds its reservation (bounded by the budget and,
/// through the connection's write deadline, in time) and nothing more.
final class ResponseReservation: Sendable {
    /// The bytes handed to the socket at a time.
    static let pieceBytes = 64 * 1024

    private let budget: RequestBodyBudget
    private let held = Locked(0)

    /// A reservation in `budget` holding nothing yet.
    init(budget: RequestBodyBudget) {
        self.budget = budget
    }

    deinit { release() }

    /// The bytes held now.
    var bytes: Int { held.withLock { $0 } }

    /// Waits for `bytes` (at most the budget's total) to fit, at most `limit`; false when
    /// they did not fit in time (nothing is then held).
    func reserve(_ bytes: Int, within limit: Duration) async -> Bool {
        let budget = self.budget
        let granted = await withTaskGroup(of: Int?.self) { group in
            group.addTask { try? await budget.reserve(bytes) }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            var granted: Int?
            // The first to finish decides; a grant that races the timeout is kept rather than lost.
            for await result in group {
                group.cancelAll()
                if let result { granted = result }
            }
            return granted
        }
        guard let granted else { return false }
        held.withLock { $0 += granted }
        return true
    }

    /// Holds `total` bytes in all: charges what a rendered response needs beyond its
    /// reservation, without waiting (the response exists already; the budget then shows it).
    func grow(to total: Int) {
        let extra = held.withLock { held -> Int in
            let extra = max(0, total - held)
            held += extra
            return extra
        }
        if extra > 0 { budget.charge(extra) }
    }

    /// Gives the bytes held back to the budget (once; later calls do nothing).
    func release() {
        let bytes = held.withLock { held -> Int in
            defer { held = 0 }
            return held
        }
        if bytes > 0 { budget.release(bytes) }
    }

    /// `response` with its body written a piece at a time, holding this reservation until
    /// the body has been written or dropped.
    func holding(_ response: Response) -> Response {
        var response = response
        let body = response.body
        let reservation = self
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            defer { reservation.release() }
            try await body.write(PieceWriter(writer: writer))
        }
        return response
    }
}

/// Hands each buffer to the writer ``ResponseReservation/pieceBytes`` at a time, so each
/// write waits for the socket to drain (the buffers are slices: nothing is copied).
private struct PieceWriter: ResponseBodyWriter {
    var writer: any ResponseBodyWriter

    mutating func write(_ buffer: ByteBuffer) async throws {
        var rest = buffer
        while rest.readableBytes > 0 {
            let length = min(rest.readableBytes, ResponseReservation.pieceBytes)
            guard let piece = rest.readSlice(length: length) else { return }
            try await writer.write(piece)
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        let writer = self.writer
        try await writer.finish(trailingHeaders)
    }
}
