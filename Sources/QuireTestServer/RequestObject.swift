import Quire

/// A JSON object of a request body, read with errors that name the member and where it is
/// (`'updates[2].documentID' must be a string`), so a malformed request gets a 400 that says
/// what to fix.
struct RequestObject: Sendable {
    /// The members.
    let members: [String: JSONValue]
    /// Where this object is in the request (`""` for the body, `updates[2]` for a nested one).
    let place: String

    init(_ members: [String: JSONValue], place: String = "") {
        self.members = members
        self.place = place
    }

    /// The body of a request: a JSON object, or an error naming the problem.
    static func parse(_ bytes: [UInt8], endpoint: String) throws -> RequestObject {
        guard !bytes.isEmpty else {
            throw TestServerError.request("\(endpoint) needs a JSON object as its request body")
        }
        let value: JSONValue
        do {
            value = try JSONReader.parse(bytes)
        } catch let error as QuireError {
            throw TestServerError.request("Invalid JSON in request body: \(error.message)")
        }
        guard case .object(let members) = value else {
            throw TestServerError.request("the request body of \(endpoint) must be a JSON object")
        }
        return RequestObject(members.dictionary)
    }

    func name(_ key: String) -> String { place.isEmpty ? key : "\(place).\(key)" }

    func value(_ key: String) -> JSONValue? {
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    func string(_ key: String) throws -> String {
        guard let value = value(key) else { throw TestServerError.request("'\(name(key))' is missing") }
        guard case .string(let text) = value else { throw TestServerError.request("'\(name(key))' must be a string") }
        return text
    }

    func optionalString(_ key: String) throws -> String? {
        guard value(key) != nil else { return nil }
        return try string(key)
    }

    func optionalBool(_ key: String) throws -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw TestServerError.request("'\(name(key))' must be true or false")
        }
        return flag
    }

    func optionalInt(_ key: String) throws -> Int? {
        guard let value = value(key) else { return nil }
        guard case .int(let number) = value, let small = Int(exactly: number) else {
            throw TestServerError.request("'\(name(key))' must be an integer")
        }
        return small
    }

    func strings(_ key: String) throws -> [String] {
        guard let value = value(key) else { throw TestServerError.request("'\(name(key))' is missing") }
        return try Self.strings(value, name: name(key))
    }

    func optionalStrings(_ key: String) throws -> [String]? {
        guard let value = value(key) else { return nil }
        return try Self.strings(value, name: name(key))
    }

    static func strings(_ value: JSONValue, name: String) throws -> [String] {
        guard case .array(let elements) = value else {
            throw TestServerError.request("'\(name)' must be an array of strings")
        }
        return try elements.enumerated().map { index, element in
            guard case .string(let text) = element else {
                throw TestServerError.request("'\(name)[\(index)]' must be a string")
            }
            return text
        }
    }

    func object(_ key: String) throws -> RequestObject {
        guard let object = try optionalObject(key) else { throw TestServerError.request("'\(name(key))' is missing") }
        return object
    }

    func optionalObject(_ key: String) throws -> RequestObject? {
        guard let value = value(key) else { return nil }
        guard case .object(let members) = value else {
            throw TestServerError.request("'\(name(key))' must be an object")
        }
        return RequestObject(members.dictionary, place: name(key))
    }

    func objects(_ key: String) throws -> [RequestObject] {
        guard let value = value(key) else { throw TestServerError.request("'\(name(key))' is missing") }
        guard case .array(let elements) = value else {
            throw TestServerError.request("'\(name(key))' must be an array of objects")
        }
        return try elements.enumerated().map { index, element in
            guard case .object(let members) = element else {
                throw TestServerError.request("'\(name(key))[\(index)]' must be an object")
            }
            return RequestObject(members.dictionary, place: "\(name(key))[\(index)]")
        }
    }
}
