import Foundation
import Quire

/// The test-kit API's schemas (Resources/testkit-api.schema.json) and a validator for the
/// JSON Schema keywords they use: type, enum, required, properties, additionalProperties,
/// items, minItems, maxProperties, oneOf, format uuid and local `$ref`s.
struct TestKitSchema: Sendable {
    let root: [String: JSONValue]

    static func load() throws -> TestKitSchema {
        guard
            let url = Bundle.module.url(forResource: "Resources/testkit-api.schema", withExtension: "json")
                ?? Bundle.module.url(forResource: "testkit-api.schema", withExtension: "json")
        else { throw QuireError(.notFound, "testkit-api.schema.json is not among the test resources") }
        guard case .object(let root) = try JSONReader.parse(try Data(contentsOf: url)) else {
            throw QuireError(.corruptData, "testkit-api.schema.json is not an object")
        }
        return TestKitSchema(root: root.dictionary)
    }

    /// The names of the definitions.
    var definitions: [String] { root["$defs"]?.objectValue?.keys.sorted() ?? [] }

    /// Every violation of definition `name` by `value`, as `path: problem`.
    func violations(of value: JSONValue, against name: String) -> [String] {
        guard let schema = root["$defs"]?[name] else { return ["no definition '\(name)'"] }
        var found: [String] = []
        check(value, schema, path: "$", into: &found)
        return found
    }

    private func resolve(_ schema: JSONValue) -> JSONValue {
        guard case .string(let reference)? = schema["$ref"], reference.hasPrefix("#/") else { return schema }
        var current = JSONValue.object(root)
        for part in reference.dropFirst(2).split(separator: "/") {
            guard let next = current[String(part)] else { return .bool(false) }
            current = next
        }
        return current
    }

    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    private func check(_ value: JSONValue, _ raw: JSONValue, path: String, into found: inout [String]) {
        let schema = resolve(raw)
        if case .bool(let allowed) = schema {
            if !allowed { found.append("\(path): not allowed") }
            return
        }
        if let type = schema["type"] {
            let allowed = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
            let actual = Self.typeName(value)
            guard allowed.contains(actual) || (actual == "integer" && allowed.contains("number")) else {
                found.append("\(path): \(actual), expected \(allowed.joined(separator: " or "))")
                return
            }
        }
        if let options = schema["enum"]?.arrayValue, !options.contains(value) {
            found.append("\(path): \(value) is not one of \(options)")
        }
        if schema["format"]?.stringValue == "uuid", let text = value.stringValue, UUID(uuidString: text) == nil {
            found.append("\(path): '\(text)' is not a UUID")
        }
        if let options = schema["oneOf"]?.arrayValue {
            let matching = options.filter { option in
                var nested: [String] = []
                check(value, option, path: path, into: &nested)
                return nested.isEmpty
            }
            if matching.count != 1 {
                found.append("\(path): matches \(matching.count) of the oneOf forms, not exactly one")
            }
        }
        if case .object(let members) = value {
            for case .string(let key) in schema["required"]?.arrayValue ?? [] where members[key] == nil {
                found.append("\(path): '\(key)' is missing")
            }
            if let limit = schema["maxProperties"]?.intValue, members.count > limit {
                found.append("\(path): \(members.count) members, at most \(limit)")
            }
            let properties = schema["properties"]?.objectValue ?? [:]
            for key in members.keys.sorted() {
                guard let member = members[key] else { continue }
                if let property = properties[key] {
                    check(member, property, path: "\(path).\(key)", into: &found)
                } else if let additional = schema["additionalProperties"] {
                    check(member, additional, path: "\(path).\(key)", into: &found)
                }
            }
        }
        if case .array(let elements) = value {
            if let minimum = schema["minItems"]?.intValue, elements.count < minimum {
                found.append("\(path): \(elements.count) items, at least \(minimum)")
            }
            if let items = schema["items"] {
                for (index, element) in elements.enumerated() {
                    check(element, items, path: "\(path)[\(index)]", into: &found)
                }
            }
        }
    }
}
