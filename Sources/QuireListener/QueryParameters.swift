import Foundation
import Quire
import QuireSync

/// The query string of a request, decoded (`+` as space, percent escapes), with typed
/// accessors that answer 400 for values of the wrong form.
struct QueryParameters: Sendable {
    private var values: [String: String] = [:]

    /// Parses `query` (the part after `?`, without it); a name given twice keeps the last value.
    init(_ query: String?) throws {
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try QueryParameters.decode(parts[0])
            values[name] = parts.count > 1 ? try QueryParameters.decode(parts[1]) : ""
        }
    }

    /// The raw text of `name`.
    subscript(name: String) -> String? { values[name] }

    /// `true` / `false`; absent is `defaultValue`.
    func bool(_ name: String, default defaultValue: Bool = false) throws -> Bool {
        guard let text = values[name] else { return defaultValue }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw HTTPFailure.badRequest("Invalid boolean parameter '\(name)': '\(text)'")
        }
    }

    /// A non-negative integer; absent is nil.
    func integer(_ name: String) throws -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), number >= 0 else {
            throw HTTPFailure.badRequest("Invalid value for '\(name)': '\(text)' is not a non-negative integer")
        }
        return number
    }

    /// The value parsed as JSON (`keys=["a","b"]`, `startkey="a"`); absent is nil.
    func json(_ name: String) throws -> JSONValue? {
        guard let text = values[name] else { return nil }
        do {
            return try JSONReader.parse(text)
        } catch let error as QuireError {
            throw HTTPFailure.badRequest("Invalid JSON in '\(name)': \(error.message)")
        }
    }

    private static func decode(_ text: Substring) throws -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding else {
            throw HTTPFailure.badRequest("Malformed percent-encoding in the query string: '\(text)'")
        }
        return decoded
    }
}
