import Foundation
import QuireFixtureBuilder

/// Reads and writes JSON text for ``SpecValue``.
///
/// Output is deterministic (object keys sorted) so reports and failure messages are stable.
package enum JSONText {
    /// Renders a value as JSON.
    ///
    /// - Parameters:
    ///   - value: the value to render.
    ///   - pretty: indent nested values by two spaces, one member per line: the indented text
    ///     `quire db cat` prints (`CommandJSONText.pretty(_:)`), doubles written as the
    ///     canonical form writes them and non-finite ones as `null`.
    package static func render(_ value: SpecValue, pretty: Bool = false) -> String {
        if pretty, let text = try? CommandJSONText.pretty(value.finite.jsonValue) { return text }
        var output = ""
        write(value, into: &output)
        return output
    }

    /// Parses JSON text.
    ///
    /// - Throws: ``EngineError`` (domain `Conformance`, code `invalidJSON`) when the text is not JSON.
    package static func parse(_ text: String) throws -> SpecValue {
        do {
            return try JSONDecoder().decode(SpecValue.self, from: Data(text.utf8))
        } catch {
            throw EngineError(
                domain: EngineError.conformanceDomain, code: "invalidJSON", message: "not valid JSON: \(error)")
        }
    }

    /// Quotes and escapes a string as a JSON string literal.
    package static func quote(_ text: String) -> String {
        var output = ""
        writeString(text, into: &output)
        return output
    }

    private static func write(_ value: SpecValue, into output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): output += String(number)
        case .double(let number): output += number.isFinite ? "\(number)" : "null"
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, into: &output)
            }
            output += "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                writeString(key, into: &output)
                output += ":"
                write(members[key] ?? .null, into: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                output += String(format: "\\u%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension SpecValue {
    /// The value with every non-finite double (which JSON cannot write) as null.
    fileprivate var finite: SpecValue {
        switch self {
        case .double(let number) where !number.isFinite: return .null
        case .array(let elements): return .array(elements.map(\.finite))
        case .object(let members): return .object(members.mapValues(\.finite))
        default: return self
        }
    }
}

extension SpecValue: Codable {
    /// Decodes any JSON value, keeping integers and doubles apart.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([SpecValue].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: SpecValue].self))
        }
    }

    /// Encodes the value as the matching JSON value.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .int(let number): try container.encode(number)
        case .double(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}
