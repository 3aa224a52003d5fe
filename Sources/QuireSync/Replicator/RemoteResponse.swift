import Foundation

/// A complete HTTP response.
struct RemoteResponse: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data

    /// A header's value, by case-insensitive name.
    func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }
}
