import Foundation
import Quire

/// A JSON value received from a peer, with where it sits, so that every type check fails with
/// an error naming the exact field (`results[2].changes[0].rev is a number, expected a
/// string`) instead of a crash or a silently wrong value.
struct WireValue: Sendable {
    let value: JSONValue
    let path: String
    /// What was being read: `_changes response from http://…`.
    let context: String

    init(_ value: JSONValue, path: String, context: String) {
        self.value = value
        self.path = path
        self.context = context
    }

    /// Parses a response body.
    static func parse(_ data: Data, context: String) throws -> WireValue {
        do {
            return WireValue(try JSONReader.parse(data), path: "", context: context)
        } catch let error as QuireError {
            throw QuireError(.remoteError, "malformed \(context): \(error.message)")
        }
    }

    /// An error about this value.
    func failure(_ problem: String) -> QuireError {
        let location = path.isEmpty ? "the body" : path
        return QuireError(.remoteError, "malformed \(context): \(location) \(problem)")
    }

    private func wrongType(_ expected: String) -> QuireError {
        failure("is \(WireValue.describe(value)), expected \(expected)")
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    func object() throws -> WireObject {
        guard case .object(let members) = value else { throw wrongType("an object") }
        return WireObject(members: members, base: self)
    }

    func array() throws -> [WireValue] {
        guard case .array(let elements) = value else { throw wrongType("an array") }
        return elements.enumerated().map { WireValue($1, path: "\(path)[\($0)]", context: context) }
    }

    func string() throws -> String {
        guard case .string(let text) = value else { throw wrongType("a string") }
        return text
    }

    func bool() throws -> Bool {
        guard case .bool(let flag) = value else { throw wrongType("a boolean") }
        return flag
    }

    /// An integer that fits `Int64` exactly.
    func int() throws -> Int64 {
        guard case .int(let number) = value else {
            if case .double(let number) = value { throw failure("is \(number), expected an integer within 64 bits") }
            throw wrongType("an integer")
        }
        return number
    }

    /// A non-negative integer.
    func unsigned() throws -> UInt64 {
        let number = try int()
        guard number >= 0 else { throw failure("is \(number), expected a non-negative integer") }
        return UInt64(number)
    }
}

/// A JSON object received from a peer (see ``WireValue``).
struct WireObject: Sendable {
    let members: [String: JSONValue]
    let base: WireValue

    private func child(_ key: String) -> String {
        base.path.isEmpty ? key : "\(base.path).\(key)"
    }

    func failure(_ problem: String) -> QuireError { base.failure(problem) }

    /// The member `key`, an error when missing.
    func required(_ key: String) throws -> WireValue {
        guard let value = members[key] else {
            let location = base.path.isEmpty ? "the body" : base.path
            throw QuireError(.remoteError, "malformed \(base.context): \(location) has no '\(key)'")
        }
        return WireValue(value, path: child(key), context: base.context)
    }

    /// The member `key`, nil when missing or null.
    func optional(_ key: String) -> WireValue? {
        guard let value = members[key], !value.isNull else { return nil }
        return WireValue(value, path: child(key), context: base.context)
    }

    func string(_ key: String) throws -> String { try required(key).string() }
}
