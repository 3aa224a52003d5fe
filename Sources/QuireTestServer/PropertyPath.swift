import Quire

/// A key path of the test-kit protocol (named apart from `Swift.KeyPath`) into a document's properties: `name.last`,
/// `addresses[0].city`, `$.phones[1]`, with `\` escaping `.`, `[`, `]` or `\` in a property
/// name.
///
/// Setting a value creates the dictionaries and arrays the path goes through, padding arrays
/// with nulls up to the index; a path through a value of the other kind is an error.
/// Removing a value that is not there does nothing.
struct PropertyPath: Sendable, Equatable, CustomStringConvertible {
    /// One step of a path.
    enum Component: Sendable, Equatable {
        /// A dictionary key.
        case key(String)
        /// An array index.
        case index(Int)
    }

    /// The largest array index accepted.
    static let maximumIndex = 100_000

    /// The steps, first to last; the first is always a key (documents are dictionaries).
    let components: [Component]
    /// The path as written.
    let text: String

    /// Parses `text`; a 400 error names the problem and the path.
    init(_ text: String) throws {
        self.text = text
        func bad(_ reason: String) -> TestServerError {
            TestServerError.request("invalid key path '\(text)': \(reason)")
        }
        var characters = Array(text)
        if characters.starts(with: ["$", "."]) { characters.removeFirst(2) }
        guard !characters.isEmpty else { throw bad("it is empty") }
        var components: [Component] = []
        var position = 0
        var expectProperty = true
        while position < characters.count {
            let character = characters[position]
            if character == "[" {
                guard !expectProperty || components.isEmpty else { throw bad("a property name must follow '.'") }
                position += 1
                var digits = ""
                while position < characters.count, characters[position] != "]" {
                    guard characters[position].isASCII, characters[position].isNumber else {
                        throw bad("'[' must be followed by digits and ']'")
                    }
                    digits.append(characters[position])
                    position += 1
                }
                guard position < characters.count else { throw bad("'[' is never closed") }
                guard !digits.isEmpty else { throw bad("an index needs at least one digit") }
                // Setting pads the array with nulls up to the index: keep that bounded.
                guard let index = Int(digits), index <= Self.maximumIndex else {
                    throw bad("index \(digits) is above the largest this server accepts, \(Self.maximumIndex)")
                }
                components.append(.index(index))
                position += 1
                expectProperty = false
            } else if character == "." {
                guard !expectProperty, !components.isEmpty else { throw bad("a property name is empty") }
                position += 1
                guard position < characters.count else { throw bad("it ends with '.'") }
                expectProperty = true
            } else if character == "]" {
                throw bad("']' without '['")
            } else {
                guard expectProperty else { throw bad("a property must follow '.' after an index") }
                var name = ""
                while position < characters.count, !".[]".contains(characters[position]) {
                    if characters[position] == "\\" {
                        position += 1
                        guard position < characters.count else { throw bad("it ends with an escape '\\'") }
                    }
                    name.append(characters[position])
                    position += 1
                }
                components.append(.key(name))
                expectProperty = false
            }
        }
        guard case .key = components.first else {
            throw bad("it must start with a property name, documents are dictionaries")
        }
        self.components = components
    }

    var description: String { text }

    /// The value at this path in `root`, nil when some step is missing.
    func value(in root: [String: JSONValue]) -> JSONValue? {
        var current = JSONValue.object(root)
        for component in components {
            switch (component, current) {
            case (.key(let key), .object(let members)):
                guard let next = members[key] else { return nil }
                current = next
            case (.index(let index), .array(let elements)):
                guard index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Puts `value` at this path in `root`.
    func set(_ value: JSONValue, in root: inout [String: JSONValue]) throws {
        var container = JSONValue.object(root)
        try Self.set(value, at: components[...], in: &container, path: self)
        if case .object(let members) = container { root = members.dictionary }
    }

    private static func set(
        _ value: JSONValue, at components: ArraySlice<Component>, in container: inout JSONValue, path: PropertyPath
    ) throws {
        guard let component = components.first else {
            container = value
            return
        }
        let rest = components.dropFirst()
        switch component {
        case .key(let key):
            if container.isNull { container = .object([:]) }
            guard case .object(var members) = container else {
                throw TestServerError.request(
                    "key path '\(path.text)': the value before '\(key)' is \(kind(container)), not a dictionary")
            }
            var child = members[key] ?? .null
            members[key] = nil
            container = .null
            try set(value, at: rest, in: &child, path: path)
            members[key] = child
            container = .object(members)
        case .index(let index):
            if container.isNull { container = .array([]) }
            guard case .array(var elements) = container else {
                throw TestServerError.request(
                    "key path '\(path.text)': the value before '[\(index)]' is \(kind(container)), not an array")
            }
            while elements.count <= index { elements.append(.null) }
            var child = elements[index]
            try set(value, at: rest, in: &child, path: path)
            elements[index] = child
            container = .array(elements)
        }
    }

    /// Removes the value at this path from `root`; nothing happens when it is not there.
    func remove(from root: inout [String: JSONValue]) {
        var container = JSONValue.object(root)
        Self.remove(at: components[...], in: &container)
        if case .object(let members) = container { root = members.dictionary }
    }

    private static func remove(at components: ArraySlice<Component>, in container: inout JSONValue) {
        guard let component = components.first else { return }
        let last = components.count == 1
        switch (component, container) {
        case (.key(let key), .object(var members)):
            guard var child = members[key] else { return }
            if last {
                members[key] = nil
            } else {
                remove(at: components.dropFirst(), in: &child)
                members[key] = child
            }
            container = .object(members)
        case (.index(let index), .array(var elements)):
            guard index < elements.count else { return }
            if last {
                elements.remove(at: index)
            } else {
                var child = elements[index]
                remove(at: components.dropFirst(), in: &child)
                elements[index] = child
            }
            container = .array(elements)
        default:
            return
        }
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "a dictionary"
        }
    }
}
