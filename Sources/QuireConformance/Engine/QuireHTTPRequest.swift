import Foundation
import Quire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `request` step: one HTTP exchange with a served database, as a CouchDB client (PouchDB,
/// curl) would make it, so specs can pin down what the listener answers to input Quire's own
/// replicator never sends.
enum QuireHTTPRequest {
    /// How long one request may take; a listener answers local requests in milliseconds.
    static let timeout: TimeInterval = 60

    /// Sends the request from the session's thread and waits for the answer; returns
    /// `{status, body}`.
    static func send(method: String, url: URL, body: SpecValue?) throws -> SpecValue {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(try JSONWriter.bytes(body.jsonValue))
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        guard let result = SynchronousDataTask.run(request, in: session, guardTimeout: timeout * 2) else {
            throw QuireError(.timeout, "\(method) \(url.absoluteString) got no answer", domain: .network)
        }
        let (data, status): (Data, Int)
        do {
            (data, status) = try result.get()
        } catch {
            throw QuireError(
                .networkError, "\(method) \(url.absoluteString) failed: \(error.localizedDescription)", domain: .network
            )
        }
        let parsed: SpecValue
        if let json = try? JSONReader.parse(data) {
            parsed = SpecValue(json: json)
        } else {
            parsed = .string(String(decoding: data, as: UTF8.self))
        }
        return .object(["status": .int(status), "body": parsed])
    }
}
