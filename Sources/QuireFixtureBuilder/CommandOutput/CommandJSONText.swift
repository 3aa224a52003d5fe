import Foundation
import Quire

/// JSON text for `quire db` output: compact canonical lines for `--json`, indented text for people.
package enum CommandJSONText {
    /// Canonical JSON (sorted keys, no spaces).
    package static func compact(_ value: JSONValue) throws -> String {
        try JSONWriter.string(value)
    }

    /// Indented JSON, two spaces a level, keys sorted; scalars written as the canonical form
    /// writes them, so `1` and `1.0` stay apart.
    package static func pretty(_ value: JSONValue) throws -> String {
        var output = ""
        try write(value, indent: 0, into: &output)
        return output
    }

    private static func write(_ value: JSONValue, indent: Int, into output: inout String) throws {
        let padding = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch value {
        case .object(let members) where !members.isEmpty:
            output += "{\n"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (position, key) in keys.enumerated() {
                output += padding + (try JSONWriter.string(.string(key))) + ": "
                try write(members[key] ?? .null, indent: indent + 1, into: &output)
                output += position == keys.count - 1 ? "\n" : ",\n"
            }
            output += closing + "}"
        case .array(let elements) where !elements.isEmpty:
            output += "[\n"
            for (position, element) in elements.enumerated() {
                output += padding
                try write(element, indent: indent + 1, into: &output)
                output += position == elements.count - 1 ? "\n" : ",\n"
            }
            output += closing + "]"
        default:
            output += try JSONWriter.string(value)
        }
    }

    /// A stored document's body as a JSON value.
    package static func body(of document: Document) throws -> [String: JSONValue] {
        guard case .object(let members) = try JSONReader.parse(document.toJSON()) else {
            throw CommandFailure("The body of document '\(document.id)' is not a JSON object")
        }
        return members.dictionary
    }

    /// A scalar or short value as table text: strings bare, everything else as JSON.
    package static func cell(_ value: JSONValue?) -> String {
        guard let value else { return "" }
        if case .string(let text) = value { return text }
        return (try? JSONWriter.string(value)) ?? ""
    }

    /// Every blob reference (`{"@type": "blob", "digest": ...}`) in `value`, as its properties.
    package static func blobs(in value: JSONValue) -> [[String: JSONValue]] {
        var found: [[String: JSONValue]] = []
        func visit(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if members["@type"] == .string("blob"), members["digest"]?.stringValue != nil {
                    found.append(members.dictionary)
                    return
                }
                for key in members.keys.sorted() { if let child = members[key] { visit(child) } }
            case .array(let elements): elements.forEach(visit)
            default: break
            }
        }
        visit(value)
        return found
    }
}
