import Foundation
import Yams

/// A YAML node that remembers where it was written: the runner's view of a spec file before
/// it becomes a model. Yams' own nodes are not `Sendable` and resolve aliases lazily, so the
/// document is copied into this tree once, right after parsing.
struct SpecNode: Sendable {
    /// One `key: value` pair of a mapping, in file order.
    struct Entry: Sendable {
        var key: String
        var keyLocation: SourceLocation
        var value: SpecNode
    }

    /// The shape of the node.
    enum Kind: Sendable {
        case scalar(SpecValue)
        case sequence([SpecNode])
        case mapping([Entry])
    }

    var kind: Kind
    var location: SourceLocation

    /// The entries, if this is a mapping.
    var entries: [Entry]? {
        if case .mapping(let entries) = kind { return entries }
        return nil
    }

    /// The elements, if this is a sequence.
    var elements: [SpecNode]? {
        if case .sequence(let elements) = kind { return elements }
        return nil
    }

    /// The scalar value, if this is a scalar.
    var scalar: SpecValue? {
        if case .scalar(let value) = kind { return value }
        return nil
    }

    /// The value of `key`, if this is a mapping that has it.
    subscript(key: String) -> SpecNode? {
        entries?.first(where: { $0.key == key })?.value
    }

    /// The entry for `key`, if this is a mapping that has it.
    func entry(_ key: String) -> Entry? {
        entries?.first(where: { $0.key == key })
    }

    /// The node as a plain value (locations dropped).
    var value: SpecValue {
        switch kind {
        case .scalar(let value): return value
        case .sequence(let elements): return .array(elements.map(\.value))
        case .mapping(let entries):
            var members: [String: SpecValue] = [:]
            for entry in entries { members[entry.key] = entry.value.value }
            return .object(members)
        }
    }

    /// The JSON type name used by the schema (`"integer"`, `"object"` ...).
    var typeName: String {
        switch kind {
        case .scalar(let value): return value.typeName
        case .sequence: return "array"
        case .mapping: return "object"
        }
    }
}

extension SpecNode {
    /// Parses YAML text into nodes.
    ///
    /// - Parameter file: the path used in locations.
    /// - Returns: the root node, or nil for an empty document.
    /// - Throws: ``SpecError`` for YAML syntax errors, duplicate keys, non-scalar keys and aliases.
    static func parse(yaml text: String, file: String) throws -> SpecNode? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.specError(from: error, file: file)
        }
        guard let root else { return nil }
        // Yams shares an aliased node wherever it is used; copying expands every use, so
        // aliases of aliases (the "billion laughs") would grow without this budget.
        var budget = SpecLimits.maximumNodes
        return try SpecNode(root, file: file, budget: &budget)
    }

    private init(_ node: Node, file: String, budget: inout Int) throws {
        let location = SourceLocation(file: file, line: node.mark?.line ?? 0, column: node.mark?.column ?? 0)
        budget -= 1
        guard budget >= 0 else {
            throw SpecError(
                "the file holds more than \(SpecLimits.maximumNodes) YAML values once aliases are expanded",
                at: location)
        }
        switch node {
        case .scalar(let scalar):
            self.init(kind: .scalar(Self.value(of: node, text: scalar.string)), location: location)
        case .sequence(let sequence):
            var elements: [SpecNode] = []
            for element in sequence { elements.append(try SpecNode(element, file: file, budget: &budget)) }
            self.init(kind: .sequence(elements), location: location)
        case .mapping(let mapping):
            var entries: [Entry] = []
            for (key, value) in mapping {
                let keyLocation = SourceLocation(file: file, line: key.mark?.line ?? 0, column: key.mark?.column ?? 0)
                guard case .scalar(let keyScalar) = key else {
                    throw SpecError(
                        "a mapping key must be a plain scalar, not a \(key.sequence == nil ? "mapping" : "sequence")",
                        at: keyLocation)
                }
                entries.append(
                    Entry(
                        key: keyScalar.string, keyLocation: keyLocation,
                        value: try SpecNode(value, file: file, budget: &budget)))
            }
            self.init(kind: .mapping(entries), location: location)
        case .alias:
            throw SpecError(
                "YAML aliases are not supported in spec files; repeat the value or use vectors", at: location)
        }
    }

    /// Resolves a plain scalar the way YAML 1.1's core schema does; quoted scalars stay text.
    private static func value(of node: Node, text: String) -> SpecValue {
        switch Tag.Name(rawValue: node.tag.description) {
        case .null: return .null
        case .bool: return node.bool.map(SpecValue.bool) ?? .string(text)
        case .int:
            if let number = node.int { return .int(number) }
            return node.float.map(SpecValue.double) ?? .string(text)
        case .float: return node.float.map(SpecValue.double) ?? .string(text)
        default: return .string(text)
        }
    }

    private static func specError(from error: YamlError, file: String) -> SpecError {
        func location(_ mark: Mark) -> SourceLocation {
            SourceLocation(file: file, line: mark.line, column: mark.column)
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let while_ = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            return SpecError("YAML syntax error: \(problem)\(while_)", at: location(mark))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return SpecError("duplicate key \(keys) in a mapping", at: location(context.mark))
        case .reader(let problem, _, _, _):
            return SpecError(
                "cannot read the file as YAML: \(problem)", at: SourceLocation(file: file, line: 1, column: 1))
        default:
            return SpecError("cannot parse YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }
}
