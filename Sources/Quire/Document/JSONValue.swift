import Foundation

/// A JSON value: the in-memory form of a document body and of everything nested in it.
///
/// Numbers keep the distinction JSON text makes: an integer literal that fits `Int64` is
/// ``int(_:)``; anything with a fraction or exponent, or an integer too large for `Int64`, is
/// ``double(_:)``. `true` and `1` are different values, and so are `.int(1)` and
/// `.double(1.0)`, so that a body read and written back keeps its exact shape and therefore its
/// revision digest.
///
/// Object keys are compared by their UTF-8 bytes (see ``JSONObject``), as fleece compares them:
/// two keys that differ only in Unicode normalisation (`"é"` precomposed and decomposed) are
/// two keys. Keys are never normalised.
package enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in 64 bits.
    case int(Int64)
    /// A floating-point number; always finite when read from JSON text.
    case double(Double)
    /// A string.
    case string(String)
    /// An ordered list of values.
    case array([JSONValue])
    /// A set of named values; key order carries no meaning.
    case object(JSONObject)
}

extension JSONValue {
    /// An object of a Swift dictionary's members (whose `String` keys are unique by canonical
    /// equivalence already): for protocol fields and values built in code.
    package static func object(_ members: [String: JSONValue]) -> JSONValue {
        .object(JSONObject(members))
    }
}

// MARK: - Accessors

extension JSONValue {
    /// The member named `key` when this is an object that has one, otherwise nil.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` when this is an array and the index is in range, otherwise nil.
    package subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// Whether this is `null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The members when this is an object, otherwise nil.
    package var objectMembers: JSONObject? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// The members as a Swift dictionary when this is an object, otherwise nil: for protocol
    /// fields, whose keys are ASCII (keys that differ only in Unicode normalisation become one
    /// there; see ``JSONObject/dictionary``).
    package var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members.dictionary
    }

    /// The elements when this is an array, otherwise nil.
    package var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The text when this is a string, otherwise nil.
    package var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The flag when this is a boolean, otherwise nil; numbers are never taken for booleans.
    package var boolValue: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }

    /// The integer when this is ``int(_:)``, or a ``double(_:)`` with no fractional part
    /// that fits `Int64` exactly; otherwise nil.
    package var int64Value: Int64? {
        switch self {
        case .int(let number):
            return number
        case .double(let number):
            // Int64(exactly:) rejects fractions, NaN, infinities and out-of-range values.
            return Int64(exactly: number)
        default:
            return nil
        }
    }

    /// ``int64Value`` as an `Int` (64-bit on every supported platform).
    package var intValue: Int? {
        int64Value.flatMap { Int(exactly: $0) }
    }

    /// The number as a `Double` when this is ``int(_:)`` or ``double(_:)``, otherwise nil.
    /// Integers beyond 2^53 are rounded to the nearest `Double`.
    package var doubleValue: Double? {
        switch self {
        case .int(let number): return Double(number)
        case .double(let number): return number
        default: return nil
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is `null`.
    package init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// A boolean literal.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer literal.
    package init(integerLiteral value: Int64) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A floating-point literal.
    package init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string literal.
    package init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array literal.
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// A dictionary literal; when a key repeats, the last value wins, as in parsed JSON.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        var members = JSONObject(minimumCapacity: elements.count)
        for (key, value) in elements { members[key] = value }
        self = .object(members)
    }
}

// MARK: - Foundation values

extension JSONValue {
    /// Converts a Foundation-style value, as `JSONSerialization` produces or an app builds
    /// by hand, or nil when it (or anything inside it) has no JSON form.
    ///
    /// Accepted: `JSONValue`, `NSNull`, `String`/`NSString`, `Bool`, every fixed-width integer
    /// type, `Float`, `Double`, `NSNumber` (booleans told apart from numbers by their class,
    /// not their value), `[Any]` and `[String: Any]` (and their `NS` counterparts). Dates and
    /// data are not JSON and are left to callers, who choose their text form.
    ///
    /// Unsigned integers above `Int64.max` become doubles. A `Float` is widened through its
    /// shortest decimal form, so `Float(0.1)` becomes `0.1` rather than `0.10000000149011612`.
    /// Non-finite numbers have no JSON form and give nil.
    package init?(any value: Any) {
        // Real NSNumber objects first: Swift's casts would happily read an NSNumber holding 1
        // as `true`, and a boolean NSNumber as an integer.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            guard let converted = JSONValue(number: number) else { return nil }
            self = converted
            return
        }
        switch value {
        case let json as JSONValue: self = json
        case is NSNull: self = .null
        case let text as String: self = .string(text)
        case let flag as Bool: self = .bool(flag)
        case let number as Int: self = .int(Int64(number))
        case let number as Int8: self = .int(Int64(number))
        case let number as Int16: self = .int(Int64(number))
        case let number as Int32: self = .int(Int64(number))
        case let number as Int64: self = .int(number)
        case let number as UInt: self = JSONValue(unsigned: UInt64(number))
        case let number as UInt8: self = .int(Int64(number))
        case let number as UInt16: self = .int(Int64(number))
        case let number as UInt32: self = .int(Int64(number))
        case let number as UInt64: self = JSONValue(unsigned: number)
        case let number as Double:
            guard number.isFinite else { return nil }
            self = .double(number)
        case let number as Float:
            guard let widened = JSONValue.widen(number) else { return nil }
            self = .double(widened)
        case let elements as [Any]:
            var converted: [JSONValue] = []
            converted.reserveCapacity(elements.count)
            for element in elements {
                guard let json = JSONValue(any: element) else { return nil }
                converted.append(json)
            }
            self = .array(converted)
        case let members as [String: Any]:
            var converted = JSONObject(minimumCapacity: members.count)
            for (key, member) in members {
                guard let json = JSONValue(any: member) else { return nil }
                converted[key] = json
            }
            self = .object(converted)
        default:
            return nil
        }
    }

    /// The value as Swift natives, the shape `JSONSerialization` callers expect: `NSNull` for
    /// null, `Bool`, `Int` for integers, `Double`, `String`, `[Any]` and `[String: Any]`.
    package var anyValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .int(let number): return Int(number)
        case .double(let number): return number
        case .string(let text): return text
        case .array(let elements): return elements.map(\.anyValue)
        case .object(let members): return members.mapValues(\.anyValue)
        }
    }

    private init(unsigned number: UInt64) {
        if let exact = Int64(exactly: number) {
            self = .int(exact)
        } else {
            self = .double(Double(number))
        }
    }

    private init?(number: NSNumber) {
        if ObjectIdentifier(type(of: number)) == JSONValue.booleanNumberClass {
            self = .bool(number.boolValue)
            return
        }
        if number is NSDecimalNumber {
            let value = number.doubleValue
            guard value.isFinite else { return nil }
            self = .double(value)
            return
        }
        // objCType is a one-letter C type encoding on every platform Foundation runs on.
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"):
            guard let widened = JSONValue.widen(number.floatValue) else { return nil }
            self = .double(widened)
        case UInt8(ascii: "d"):
            let value = number.doubleValue
            guard value.isFinite else { return nil }
            self = .double(value)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"):
            self = JSONValue(unsigned: number.uint64Value)
        default:
            self = .int(number.int64Value)
        }
    }

    private static func widen(_ number: Float) -> Double? {
        guard number.isFinite else { return nil }
        return Double(number.description) ?? Double(number)
    }

    /// The class Foundation uses for boolean numbers (`__NSCFBoolean` on Darwin and on
    /// Linux); comparing classes is the one test that works on both without CoreFoundation.
    private static let booleanNumberClass = ObjectIdentifier(type(of: NSNumber(value: true)))
}
