/// A step's arguments, after substitution, do not make sense (a spec error found at run time).
struct ArgumentError: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Typed access to a step's argument mapping, with messages that name the step and the key.
struct Arguments {
    let keyword: String
    let values: [String: SpecValue]

    init(keyword: String, _ value: SpecValue) throws {
        self.keyword = keyword
        switch value {
        case .null: values = [:]
        case .object(let members): values = members
        default:
            throw ArgumentError(
                "\(keyword) takes a mapping of arguments, not \(value.typeName) \(ValueMatcher.render(value, limit: 80))"
            )
        }
    }

    subscript(key: String) -> SpecValue? {
        guard let value = values[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws -> String {
        guard let value = self[key] else { throw ArgumentError("\(keyword) needs '\(key)'") }
        guard let text = value.stringValue else { throw mismatch(key, "a string", value) }
        return text
    }

    func optionalString(_ key: String) throws -> String? {
        try self[key].map { _ in try string(key) }
    }

    func number(_ key: String) throws -> Double {
        guard let value = self[key] else { throw ArgumentError("\(keyword) needs '\(key)'") }
        guard let number = value.doubleValue else { throw mismatch(key, "a number", value) }
        return number
    }

    func integer(_ key: String) throws -> Int? {
        guard let value = self[key] else { return nil }
        guard let number = value.intValue else { throw mismatch(key, "an integer", value) }
        return number
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = self[key] else { return nil }
        guard let flag = value.boolValue else { throw mismatch(key, "true or false", value) }
        return flag
    }

    func object(_ key: String) throws -> [String: SpecValue]? {
        guard let value = self[key] else { return nil }
        guard let members = value.objectValue else { throw mismatch(key, "a mapping", value) }
        return members
    }

    func strings(_ key: String) throws -> [String]? {
        guard let value = self[key] else { return nil }
        guard let elements = value.arrayValue, elements.allSatisfy({ $0.stringValue != nil }) else {
            throw mismatch(key, "a list of strings", value)
        }
        return elements.compactMap(\.stringValue)
    }

    /// `collection:` as `scope.collection` or `collection`; `_default._default` when absent.
    func collection(_ key: String = "collection") throws -> CollectionName {
        try optionalString(key).map(CollectionName.init(fullName:)) ?? .default
    }

    func concurrency() throws -> Step.ConcurrencyControl {
        guard let text = try optionalString("concurrency") else { return .lastWriteWins }
        guard let control = Step.ConcurrencyControl(rawValue: text) else {
            let names = Step.ConcurrencyControl.allCases.map(\.rawValue)
            throw ArgumentError(
                "\(keyword): concurrency must be \(names.joined(separator: " or ")), not \(JSONText.quote(text))\(Suggestion.didYouMean(text, in: names))"
            )
        }
        return control
    }

    private func mismatch(_ key: String, _ expected: String, _ value: SpecValue) -> ArgumentError {
        ArgumentError(
            "\(keyword): '\(key)' must be \(expected), not \(value.typeName) \(ValueMatcher.render(value, limit: 80))")
    }
}
