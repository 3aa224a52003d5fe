import Foundation

/// Converts what apps pass as query constants and parameters into JSON.
enum QueryValue {
    /// The JSON form of a plain value (see ``Expression/value(_:)``), or nil when it has none.
    /// Optionals inside arrays and dictionaries become NULL; dates become ISO-8601 text.
    static func json(_ value: Any?) -> JSONValue? {
        guard let value = unwrap(value) else { return .null }
        switch value {
        case let date as Date:
            return .string(ISO8601.string(from: date))
        case let array as ArrayObject:
            return .array(array.jsonArray)
        case let dictionary as DictionaryObject:
            return .object(dictionary.jsonObject)
        case let json as JSONValue:
            return json
        case let elements as [Any]:
            var converted: [JSONValue] = []
            for element in elements {
                guard let json = json(element) else { return nil }
                converted.append(json)
            }
            return .array(converted)
        case let members as [String: Any]:
            var converted: [String: JSONValue] = [:]
            for (key, member) in members {
                guard let json = json(member) else { return nil }
                converted[key] = json
            }
            return .object(converted)
        default:
            return JSONValue(any: value)
        }
    }

    /// The value inside any number of optional wrappers, nil for none.
    private static func unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { unwrap($0.value) }
    }
}
