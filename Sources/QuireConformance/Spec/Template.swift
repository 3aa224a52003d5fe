/// `${name}` and `${name.path.0.key}` references inside spec values.
///
/// A string that is exactly one reference becomes the referenced value with its type (so
/// `count: "${n}"` is an integer when `n` is); references inside longer text are replaced by
/// the value's text (strings as they are, anything else as compact JSON). `$${` writes a
/// literal `${`. Mapping keys are substituted too. A reference may end in string functions
/// applied in turn (``TemplateFunction``): `${url|withoutPort}`, `${url|replace(127.0.0.1,localhost)}`.
enum Template {
    /// A reference that cannot be resolved.
    struct Unresolved: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// One `${...}` found in text.
    struct Reference: Sendable, Hashable {
        /// The variable's name (the first path component).
        var name: String
        /// The rest of the path.
        var path: [String]
        /// The functions after `|`, applied in order to the value.
        var functions: [TemplateFunction] = []
    }

    /// Whether `text` is exactly one reference, which stands for a value of any type.
    static func isWholeReference(_ text: String) -> Bool {
        let parts = pieces(of: text)
        return parts.count == 1 && parts[0].reference != nil
    }

    /// Replaces every reference in `value`.
    static func substitute(_ value: SpecValue, with variables: [String: SpecValue]) throws -> SpecValue {
        switch value {
        case .string(let text):
            return try substitute(text, with: variables)
        case .array(let elements):
            return .array(try elements.map { try substitute($0, with: variables) })
        case .object(let members):
            var result: [String: SpecValue] = [:]
            for (key, member) in members {
                let newKey = try substitute(key, with: variables)
                result[newKey.stringValue ?? newKey.description] = try substitute(member, with: variables)
            }
            return .object(result)
        default:
            return value
        }
    }

    /// Every reference in `value`, in no particular order.
    static func references(in value: SpecValue) -> [Reference] {
        switch value {
        case .string(let text): return pieces(of: text).compactMap(\.reference)
        case .array(let elements): return elements.flatMap(references(in:))
        case .object(let members):
            return members.flatMap { key, member in pieces(of: key).compactMap(\.reference) + references(in: member) }
        default: return []
        }
    }

    private static func substitute(_ text: String, with variables: [String: SpecValue]) throws -> SpecValue {
        let parts = pieces(of: text)
        if parts.count == 1, let reference = parts[0].reference {
            return try resolve(reference, in: variables)
        }
        var output = ""
        for part in parts {
            switch part {
            case .text(let literal): output += literal
            case .reference(let reference):
                let value = try resolve(reference, in: variables)
                output += value.stringValue ?? value.description
            }
        }
        return .string(output)
    }

    private static func resolve(_ reference: Reference, in variables: [String: SpecValue]) throws -> SpecValue {
        guard let root = variables[reference.name] else {
            let hint = Suggestion.didYouMean(reference.name, in: variables.keys)
            throw Unresolved(description: "undefined variable '\(reference.name)'\(hint)")
        }
        guard var value = root.value(at: reference.path) else {
            let path = ([reference.name] + reference.path).joined(separator: ".")
            throw Unresolved(
                description:
                    "'${\(path)}' does not exist: '\(reference.name)' is \(ValueMatcher.render(root, limit: 120))")
        }
        for function in reference.functions {
            do {
                value = try function.apply(to: value)
            } catch let error as TemplateFunction.Failure {
                throw Unresolved(description: error.description)
            }
        }
        return value
    }

    private enum Piece {
        case text(String)
        case reference(Reference)

        var reference: Reference? {
            if case .reference(let reference) = self { return reference }
            return nil
        }
    }

    /// Splits text into literal runs and references. An unterminated `${` stays literal.
    private static func pieces(of text: String) -> [Piece] {
        guard text.contains("${") else { return [.text(text)] }
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            if rest[..<start.lowerBound].hasSuffix("$") {
                // `$${` is an escaped `${`.
                literal += rest[..<rest.index(before: start.lowerBound)] + "${"
                rest = rest[start.upperBound...]
                continue
            }
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            literal += rest[..<start.lowerBound]
            if !literal.isEmpty { pieces.append(.text(literal)) }
            literal = ""
            let inner = rest[start.upperBound..<end].split(separator: "|", omittingEmptySubsequences: false)
            let path = inner[0].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let functions = inner.dropFirst().map { TemplateFunction(text: String($0)) }
            pieces.append(.reference(Reference(name: path[0], path: Array(path.dropFirst()), functions: functions)))
            rest = rest[rest.index(after: end)...]
        }
        literal += rest
        if !literal.isEmpty || pieces.isEmpty { pieces.append(.text(literal)) }
        return pieces
    }
}
