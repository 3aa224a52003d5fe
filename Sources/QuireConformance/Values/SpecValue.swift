/// A JSON-like value: what spec files write, what steps return and what expectations compare.
///
/// Integers and doubles are kept apart (`1` and `1.0` decode differently), but comparisons in
/// expectations treat them as numbers, so `1` matches `1.0`. Object keys are unordered.
package enum SpecValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// Text.
    case string(String)
    /// An ordered list.
    case array([SpecValue])
    /// A mapping from keys to values.
    case object([String: SpecValue])
}

extension SpecValue {
    /// The text, if this is a string.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number, if this is an integer (or a double with no fractional part).
    package var intValue: Int? {
        switch self {
        case .int(let number): return number
        case .double(let number) where number.rounded() == number && abs(number) < 9.0e18: return Int(number)
        default: return nil
        }
    }

    /// The number, if this is an integer or a double.
    package var doubleValue: Double? {
        switch self {
        case .int(let number): return Double(number)
        case .double(let number): return number
        default: return nil
        }
    }

    /// The flag, if this is a boolean.
    package var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The elements, if this is an array.
    package var arrayValue: [SpecValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members, if this is an object.
    package var objectValue: [String: SpecValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Whether this is `null`.
    package var isNull: Bool { self == .null }

    /// The member at `key`, if this is an object that has it.
    package subscript(key: String) -> SpecValue? {
        objectValue?[key]
    }

    /// Follows a path of object keys and array indexes (`["_meta", "revisionID"]`, `["rows", "0"]`).
    ///
    /// - Returns: the value found, or nil when a step of the path does not exist.
    package func value(at path: some Sequence<String>) -> SpecValue? {
        var current = self
        for component in path {
            switch current {
            case .object(let members):
                guard let next = members[component] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(component), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The JSON type name of this value (`"string"`, `"integer"`, `"object"` ...).
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension SpecValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    package init(nilLiteral: ()) { self = .null }
    /// A boolean.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer.
    package init(integerLiteral value: Int) { self = .int(value) }
    /// A double.
    package init(floatLiteral value: Double) { self = .double(value) }
    /// A string.
    package init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    package init(arrayLiteral elements: SpecValue...) { self = .array(elements) }
    /// An object; a repeated key keeps its last value.
    package init(dictionaryLiteral elements: (String, SpecValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension SpecValue: CustomStringConvertible {
    /// Compact JSON with sorted keys.
    package var description: String { JSONText.render(self) }
}
