import Foundation

/// A string function applied to a variable inside a reference: `${url|withoutPort}`.
///
/// They let a checkpoint case build the URLs the prebuilt-database guide warns about from the
/// one a `serve` step returned: the same server without its port, or `localhost` where the
/// checkpoint says `127.0.0.1`.
///
/// - `replace(old,new)`: the text with every `old` replaced by `new` (arguments are literal text
///   between the commas; no spaces are trimmed);
/// - `host`: a URL's host;
/// - `port`: a URL's port as an integer, or null when it has none;
/// - `withoutPort`: the URL with its port left out;
/// - `add(n)`: an integer plus `n`; `subtractFrom(n)`: `n` minus an integer (a `repeat`
///   iteration numbered from 0 becomes Couchbase Lite's `number1` from 1 and `number2` counting
///   down, as its query tests load them).
struct TemplateFunction: Sendable, Hashable {
    /// Why a function cannot be applied; the runner reports it as a spec error.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// The names the runner knows.
    static let names = ["replace", "host", "port", "withoutPort", "add", "subtractFrom"]

    /// The function's name.
    var name: String
    /// Its arguments, as literal text.
    var arguments: [String]

    /// Reads `name` or `name(a,b)`.
    init(text: String) {
        if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            name = String(text[..<open])
            let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
            arguments =
                inside.isEmpty ? [] : inside.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        } else {
            name = text
            arguments = []
        }
    }

    /// The function's result for `value`.
    func apply(to value: SpecValue) throws -> SpecValue {
        guard Self.names.contains(name) else {
            throw Failure(
                description:
                    "unknown function '\(name)' after '|'\(Suggestion.didYouMean(name, in: Self.names)); known: \(Self.names.joined(separator: ", "))"
            )
        }
        let expected = name == "replace" ? 2 : name == "add" || name == "subtractFrom" ? 1 : 0
        guard arguments.count == expected else {
            throw Failure(
                description:
                    "'\(name)' takes \(expected == 0 ? "no arguments" : "\(expected) arguments, separated by a comma"), not \(arguments.count)"
            )
        }
        if name == "add" || name == "subtractFrom" { return try arithmetic(on: value) }
        guard let text = value.stringValue else {
            throw Failure(description: "'\(name)' applies to a string, not \(ValueMatcher.render(value, limit: 80))")
        }
        if name == "replace" {
            guard !arguments[0].isEmpty else {
                throw Failure(description: "'replace' needs text to replace, not an empty string")
            }
            return .string(text.replacingOccurrences(of: arguments[0], with: arguments[1]))
        }
        guard var components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
            throw Failure(
                description: "'\(name)' applies to a URL such as http://127.0.0.1:4984/db, not \(JSONText.quote(text))")
        }
        switch name {
        case "host": return .string(host)
        case "port": return components.port.map { .int($0) } ?? .null
        default:
            components.port = nil
            guard let url = components.string else {
                throw Failure(description: "'withoutPort' could not rewrite \(JSONText.quote(text))")
            }
            return .string(url)
        }
    }

    /// `add(n)` and `subtractFrom(n)` on an integer.
    private func arithmetic(on value: SpecValue) throws -> SpecValue {
        guard let operand = Int(arguments[0]) else {
            throw Failure(description: "'\(name)' takes an integer, not \(JSONText.quote(arguments[0]))")
        }
        guard case .int(let integer) = value else {
            throw Failure(description: "'\(name)' applies to an integer, not \(ValueMatcher.render(value, limit: 80))")
        }
        let (result, overflow) =
            name == "add" ? integer.addingReportingOverflow(operand) : operand.subtractingReportingOverflow(integer)
        guard !overflow else { throw Failure(description: "'\(name)(\(operand))' overflows on \(integer)") }
        return .int(result)
    }
}
