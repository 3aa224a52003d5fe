/// A value written as a generator in a vector: `{repeat: "x", count: 252}`,
/// `{random: alnum, length: 12}`, `{characters: "a-z"}`, `{range: [1, 5]}`, `{literal: ...}`.
enum VectorGenerator: Sendable, Equatable {
    case repeated(String, count: Int)
    case random(alphabet: String, length: Int)
    case characters(String, except: String?)
    case range(from: Int, through: Int)
    case literal(SpecValue)

    /// The alphabets `random` can use.
    static let alphabets: [String: String] = [
        "alnum": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
        "alpha": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
        "lower": "abcdefghijklmnopqrstuvwxyz",
        "upper": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "digits": "0123456789",
        "hex": "0123456789abcdef",
        "printable": (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }.joined(),
    ]

    /// Reads a generator mapping (already checked by the schema).
    init(_ node: SpecNode) throws {
        let value = node.value
        let limit = SpecLimits.maximumGeneratedLength
        if let text = value["repeat"]?.stringValue {
            let count = value["count"]?.intValue ?? 0
            let (length, overflow) = text.count.multipliedReportingOverflow(by: count)
            guard count >= 0, !overflow, length <= limit else {
                throw SpecError(
                    "repeat makes \(overflow ? "too many" : String(length)) characters; the most is \(limit)",
                    at: node.location)
            }
            self = .repeated(text, count: count)
        } else if let name = value["random"]?.stringValue {
            guard Self.alphabets[name] != nil else {
                throw SpecError(
                    "unknown alphabet '\(name)'\(Suggestion.didYouMean(name, in: Self.alphabets.keys))",
                    at: node.location)
            }
            let length = value["length"]?.intValue ?? 0
            guard (0...limit).contains(length) else {
                throw SpecError("random length \(length) is out of range; the most is \(limit)", at: node.location)
            }
            self = .random(alphabet: name, length: length)
        } else if let text = value["characters"]?.stringValue {
            self = .characters(text, except: value["except"]?.stringValue)
        } else if let bounds = value["range"]?.arrayValue, bounds.count == 2,
            let from = bounds[0].intValue, let through = bounds[1].intValue
        {
            guard from <= through, through - from < 100_000 else {
                throw SpecError(
                    "range [\(from), \(through)] must go upwards and hold at most 100000 values", at: node.location)
            }
            self = .range(from: from, through: through)
        } else if let literal = value["literal"] {
            self = .literal(literal)
        } else {
            throw SpecError("not a generator: \(value)", at: node.location)
        }
    }

    /// Whether the generator makes more than one value (allowed only in the column form).
    var isMultiValued: Bool {
        switch self {
        case .characters, .range: return true
        default: return false
        }
    }

    /// The generated values with their labels for case names. Labels never depend on the
    /// seed, so names stay stable when the data changes.
    func values(random: inout SeededRandom) throws -> [(value: SpecValue, label: String)] {
        switch self {
        case .repeated(let text, let count):
            let label = text.count == 1 ? "\(VectorLabel.render(text))×\(count)" : "\(JSONText.quote(text))×\(count)"
            return [(.string(String(repeating: text, count: count)), label)]
        case .random(let name, let length):
            let alphabet = Array(Self.alphabets[name] ?? "")
            let text = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            return [(.string(text), "random(\(name),\(length))")]
        case .characters(let set, let except):
            let excluded = Set(try Self.expand(except ?? ""))
            return try Self.expand(set).filter { !excluded.contains($0) }.map {
                (.string(String($0)), VectorLabel.render(String($0)))
            }
        case .range(let from, let through):
            return (from...through).map { (.int($0), String($0)) }
        case .literal(let value):
            return [(value, VectorLabel.render(value))]
        }
    }

    /// Expands a character set: `a-z` is a range, `\` escapes the next character, and a `-`
    /// at either end is itself. Order is kept and duplicates dropped. A set that names more
    /// than ``SpecLimits/maximumGeneratedValues`` characters, repeats included, is an error.
    static func expand(_ set: String) throws -> [Character] {
        var scalars: [Unicode.Scalar] = []
        var escaped: [Bool] = []
        var pending = false
        for scalar in set.unicodeScalars {
            if pending {
                scalars.append(scalar)
                escaped.append(true)
                pending = false
            } else if scalar == "\\" {
                pending = true
            } else {
                scalars.append(scalar)
                escaped.append(false)
            }
        }
        if pending {
            scalars.append("\\")
            escaped.append(true)
        }
        var result: [Character] = []
        var seen = Set<Character>()
        func add(_ scalar: Unicode.Scalar) {
            let character = Character(scalar)
            if seen.insert(character).inserted { result.append(character) }
        }
        // Counted before the work, so a set of many wide ranges cannot run for long either.
        var named = 0
        func name(_ count: Int) throws {
            named += count
            if named > SpecLimits.maximumGeneratedValues {
                throw CharacterSetError(
                    description: "the character set names more than \(SpecLimits.maximumGeneratedValues) characters")
            }
        }
        var index = 0
        while index < scalars.count {
            if index + 2 < scalars.count, scalars[index + 1] == "-", !escaped[index + 1] {
                let low = scalars[index].value
                let high = scalars[index + 2].value
                guard low <= high else {
                    throw CharacterSetError(
                        description: "character range '\(scalars[index])-\(scalars[index + 2])' goes backwards")
                }
                try name(Int(high - low) + 1)
                for value in low...high { if let scalar = Unicode.Scalar(value) { add(scalar) } }
                index += 3
            } else {
                try name(1)
                add(scalars[index])
                index += 1
            }
        }
        return result
    }
}

/// A character set that does not make sense (a backwards range).
struct CharacterSetError: Error, Sendable, CustomStringConvertible {
    var description: String
}
