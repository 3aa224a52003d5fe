import Foundation

/// A validator for the subset of JSON Schema (draft 2020-12) that `Specs/schema.json` uses.
///
/// Building one checks that the schema uses only keywords this validator implements, so the
/// schema editors read and the checks the runner makes cannot silently drift apart: a keyword
/// added to the schema without support here is an error, not an ignored rule.
///
/// Instances are ``SpecNode`` trees, so every violation carries a file, line and column.
/// Patterns use `NSRegularExpression` (ICU), which agrees with ECMA-262 on the simple
/// patterns the schema contains.
final class JSONSchema: @unchecked Sendable {
    // Safe because every stored property is immutable after `init`, and compiled regular
    // expressions are documented as safe to use from several threads.

    /// Annotation keywords: accepted and ignored.
    static let annotationKeywords: Set<String> = [
        "$schema", "$id", "$comment", "title", "description", "examples", "default", "deprecated",
    ]

    /// Keywords that constrain instances and are implemented here.
    static let assertionKeywords: Set<String> = [
        "$defs", "$ref", "type", "enum", "const", "properties", "required", "additionalProperties",
        "propertyNames", "dependentRequired", "minProperties", "maxProperties", "items", "minItems", "maxItems",
        "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
        "oneOf", "anyOf", "allOf", "not",
    ]

    /// The schema document.
    let root: SpecValue
    private let patterns: [String: NSRegularExpression]

    /// Loads a schema.
    ///
    /// - Throws: ``SchemaDefinitionError`` when the schema uses an unsupported keyword, a
    ///   `$ref` that does not resolve, or a pattern that does not compile.
    init(_ root: SpecValue) throws {
        self.root = root
        var patterns: [String: NSRegularExpression] = [:]
        try Self.inspect(root, path: "#", root: root, patterns: &patterns)
        self.patterns = patterns
    }

    /// Loads a schema from JSON text.
    convenience init(json: String) throws {
        try self.init(JSONText.parse(json))
    }

    /// Every violation in `node`, sorted by location.
    func validate(_ node: SpecNode) -> [SchemaViolation] {
        var violations: [SchemaViolation] = []
        check(node, against: root, depth: 0, into: &violations)
        return violations.sorted { ($0.location, $0.message) < ($1.location, $1.message) }
    }

    // MARK: Checking the schema itself

    private static func inspect(
        _ schema: SpecValue, path: String, root: SpecValue, patterns: inout [String: NSRegularExpression]
    ) throws {
        if case .bool = schema { return }
        guard let members = schema.objectValue else {
            throw SchemaDefinitionError(path: path, message: "a schema must be an object or a boolean")
        }
        for key in members.keys.sorted() where !annotationKeywords.contains(key) && !assertionKeywords.contains(key) {
            throw SchemaDefinitionError(path: path, message: "unsupported keyword '\(key)'")
        }
        if let reference = members["$ref"] {
            guard let text = reference.stringValue, resolve(text, in: root) != nil else {
                throw SchemaDefinitionError(path: path, message: "unresolvable $ref \(reference)")
            }
        }
        if let pattern = members["pattern"]?.stringValue, patterns[pattern] == nil {
            do {
                patterns[pattern] = try NSRegularExpression(pattern: pattern)
            } catch {
                throw SchemaDefinitionError(path: path, message: "pattern \(JSONText.quote(pattern)) does not compile")
            }
        }
        for key in ["$defs", "properties"] {
            for (name, subschema) in members[key]?.objectValue ?? [:] {
                try inspect(subschema, path: "\(path)/\(key)/\(name)", root: root, patterns: &patterns)
            }
        }
        for key in ["oneOf", "anyOf", "allOf"] {
            for (index, subschema) in (members[key]?.arrayValue ?? []).enumerated() {
                try inspect(subschema, path: "\(path)/\(key)/\(index)", root: root, patterns: &patterns)
            }
        }
        for key in ["additionalProperties", "propertyNames", "items", "not"] {
            if let subschema = members[key] {
                try inspect(subschema, path: "\(path)/\(key)", root: root, patterns: &patterns)
            }
        }
    }

    /// Resolves a local reference such as `#/$defs/step`.
    static func resolve(_ reference: String, in root: SpecValue) -> SpecValue? {
        guard reference.hasPrefix("#") else { return nil }
        let pointer = reference.dropFirst()
        guard !pointer.isEmpty else { return root }
        guard pointer.hasPrefix("/") else { return nil }
        let components = pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        return root.value(at: components)
    }

    // MARK: Checking instances

    private func check(
        _ node: SpecNode, against schema: SpecValue, depth: Int, into violations: inout [SchemaViolation]
    ) {
        if case .bool(let allowed) = schema {
            if !allowed {
                violations.append(.init(location: node.location, message: "no value is allowed here", depth: depth))
            }
            return
        }
        guard let rules = schema.objectValue else { return }
        // A `${variable}` alone stands for a value of any type (the runner substitutes it, type
        // and all), so it may take the place of a number, a list or a mapping.
        if let text = node.scalar?.stringValue, Template.isWholeReference(text),
            rules["enum"] != nil || rules["const"] != nil
                || rules["type"].map({ !Self.node(node, hasType: $0) }) ?? false
        {
            return
        }
        func fail(_ message: String, kind: SchemaViolation.Kind = .other, at location: SourceLocation? = nil) {
            violations.append(.init(location: location ?? node.location, message: message, kind: kind, depth: depth))
        }

        if let reference = rules["$ref"]?.stringValue, let target = Self.resolve(reference, in: root) {
            check(node, against: target, depth: depth, into: &violations)
        }
        if let type = rules["type"], !Self.node(node, hasType: type) {
            fail("expected \(Self.describe(type: type)), found \(Self.describe(node))")
            return
        }
        if let options = rules["enum"]?.arrayValue, !options.contains(where: { Self.equal(node.value, $0) }) {
            let listed = options.map { $0.stringValue ?? $0.description }
            let hint = node.scalar?.stringValue.map { Suggestion.didYouMean($0, in: listed) } ?? ""
            fail("\(Self.describe(node)) is not one of: \(listed.joined(separator: ", "))\(hint)")
        }
        if let constant = rules["const"], !Self.equal(node.value, constant) {
            fail("expected \(constant), found \(Self.describe(node))")
        }
        var hasUnknownKeys = false
        if let entries = node.entries {
            hasUnknownKeys = checkObject(node, entries: entries, rules: rules, depth: depth, into: &violations)
        }
        if let elements = node.elements {
            checkArray(elements, node: node, rules: rules, depth: depth, into: &violations)
        }
        if let value = node.scalar {
            checkScalar(value, rules: rules, fail: { fail($0) })
        }
        for subschema in rules["allOf"]?.arrayValue ?? [] {
            check(node, against: subschema, depth: depth, into: &violations)
        }
        if let branches = rules["anyOf"]?.arrayValue {
            checkAlternatives(
                node, branches: branches, exactlyOne: false, rules: rules, depth: depth,
                hasUnknownKeys: hasUnknownKeys, into: &violations)
        }
        if let branches = rules["oneOf"]?.arrayValue {
            checkAlternatives(
                node, branches: branches, exactlyOne: true, rules: rules, depth: depth,
                hasUnknownKeys: hasUnknownKeys, into: &violations)
        }
        if let negated = rules["not"] {
            var inner: [SchemaViolation] = []
            check(node, against: negated, depth: depth, into: &inner)
            if inner.isEmpty { fail("\(Self.describe(node)) is not allowed here") }
        }
    }

    /// Checks object keywords; returns whether unknown keys were found.
    private func checkObject(
        _ node: SpecNode, entries: [SpecNode.Entry], rules: [String: SpecValue], depth: Int,
        into violations: inout [SchemaViolation]
    ) -> Bool {
        let properties = rules["properties"]?.objectValue ?? [:]
        let title = rules["title"]?.stringValue ?? "key"
        var hasUnknownKeys = false
        for entry in entries {
            if let propertySchema = properties[entry.key] {
                check(entry.value, against: propertySchema, depth: depth + 1, into: &violations)
            } else if let additional = rules["additionalProperties"] {
                if additional == .bool(false) {
                    hasUnknownKeys = true
                    let hint = Suggestion.didYouMean(entry.key, in: properties.keys)
                    violations.append(
                        .init(
                            location: entry.keyLocation, message: "unknown \(title) '\(entry.key)'\(hint)",
                            kind: .unknownKey, depth: depth + 1))
                } else {
                    check(entry.value, against: additional, depth: depth + 1, into: &violations)
                }
            }
            if let names = rules["propertyNames"] {
                let keyNode = SpecNode(kind: .scalar(.string(entry.key)), location: entry.keyLocation)
                check(keyNode, against: names, depth: depth + 1, into: &violations)
            }
        }
        // A misspelt key usually is the missing required one: report the spelling, not both.
        if !hasUnknownKeys {
            for case .string(let key) in rules["required"]?.arrayValue ?? [] where node[key] == nil {
                violations.append(
                    .init(
                        location: node.location, message: "missing required \(title) '\(key)'",
                        kind: .missingKey, depth: depth))
            }
        }
        for (key, needed) in rules["dependentRequired"]?.objectValue ?? [:] where node[key] != nil {
            for case .string(let other) in needed.arrayValue ?? [] where node[other] == nil {
                violations.append(
                    .init(
                        location: node.location, message: "'\(key)' needs '\(other)' next to it",
                        kind: .missingKey, depth: depth))
            }
        }
        if let minimum = rules["minProperties"]?.intValue, entries.count < minimum {
            violations.append(
                .init(
                    location: node.location,
                    message: "expected at least \(minimum) \(minimum == 1 ? "key" : "keys"), found \(entries.count)",
                    depth: depth))
        }
        if let maximum = rules["maxProperties"]?.intValue, entries.count > maximum {
            violations.append(
                .init(
                    location: node.location,
                    message: "expected at most \(maximum) \(maximum == 1 ? "key" : "keys"), found \(entries.count)",
                    depth: depth))
        }
        return hasUnknownKeys
    }

    private func checkArray(
        _ elements: [SpecNode], node: SpecNode, rules: [String: SpecValue], depth: Int,
        into violations: inout [SchemaViolation]
    ) {
        if let items = rules["items"] {
            for element in elements { check(element, against: items, depth: depth + 1, into: &violations) }
        }
        if let minimum = rules["minItems"]?.intValue, elements.count < minimum {
            violations.append(
                .init(
                    location: node.location,
                    message:
                        "expected at least \(minimum) \(minimum == 1 ? "element" : "elements"), found \(elements.count)",
                    depth: depth))
        }
        if let maximum = rules["maxItems"]?.intValue, elements.count > maximum {
            violations.append(
                .init(
                    location: node.location,
                    message:
                        "expected at most \(maximum) \(maximum == 1 ? "element" : "elements"), found \(elements.count)",
                    depth: depth))
        }
    }

    private func checkScalar(_ value: SpecValue, rules: [String: SpecValue], fail: (String) -> Void) {
        if let text = value.stringValue {
            let length = text.unicodeScalars.count
            if let minimum = rules["minLength"]?.intValue, length < minimum {
                fail(
                    "expected at least \(minimum) \(minimum == 1 ? "character" : "characters"), found \(JSONText.quote(text))"
                )
            }
            if let maximum = rules["maxLength"]?.intValue, length > maximum {
                fail("expected at most \(maximum) characters, found \(length)")
            }
            if let pattern = rules["pattern"]?.stringValue, let expression = patterns[pattern] {
                let range = NSRange(text.startIndex..., in: text)
                if expression.firstMatch(in: text, range: range) == nil {
                    let expected = rules["description"]?.stringValue ?? "text matching \(JSONText.quote(pattern))"
                    fail("expected \(expected), found \(JSONText.quote(text))")
                }
            }
        }
        if let number = value.doubleValue {
            if let minimum = rules["minimum"]?.doubleValue, number < minimum {
                fail("expected a number of at least \(Self.format(minimum)), found \(value)")
            }
            if let maximum = rules["maximum"]?.doubleValue, number > maximum {
                fail("expected a number of at most \(Self.format(maximum)), found \(value)")
            }
            if let bound = rules["exclusiveMinimum"]?.doubleValue, number <= bound {
                fail("expected a number greater than \(Self.format(bound)), found \(value)")
            }
        }
    }

    /// `oneOf` / `anyOf`. When nothing matches, the message comes from the branch that got
    /// furthest into the value (its errors are the most specific), unless no branch got past
    /// this node, in which case the schema's `description` (or a list of forms) is clearer.
    private func checkAlternatives(
        _ node: SpecNode, branches: [SpecValue], exactlyOne: Bool, rules: [String: SpecValue], depth: Int,
        hasUnknownKeys: Bool, into violations: inout [SchemaViolation]
    ) {
        let outcomes = branches.map { branch -> [SchemaViolation] in
            var found: [SchemaViolation] = []
            check(node, against: branch, depth: depth, into: &found)
            return found
        }
        let matching = outcomes.filter(\.isEmpty).count
        let requiredKeys = branches.map(Self.singleRequiredKey)
        let isKeyChoice = !requiredKeys.isEmpty && requiredKeys.allSatisfy { $0 != nil }
        let keyList = requiredKeys.compactMap { $0 }
        if exactlyOne && matching > 1 {
            if isKeyChoice {
                let present = keyList.filter { node[$0] != nil }
                violations.append(
                    .init(
                        location: node.location,
                        message:
                            "\(Self.article(rules["title"]?.stringValue)) needs exactly one of: \(keyList.joined(separator: ", ")); found \(present.joined(separator: " and "))",
                        depth: depth))
            } else {
                violations.append(
                    .init(
                        location: node.location, message: "\(Self.describe(node)) matches more than one allowed form",
                        depth: depth))
            }
            return
        }
        guard matching == 0 else { return }
        if isKeyChoice {
            // The unknown key already explains what is wrong.
            if !hasUnknownKeys {
                violations.append(
                    .init(
                        location: node.location,
                        message:
                            "\(Self.article(rules["title"]?.stringValue)) needs one of: \(keyList.joined(separator: ", "))",
                        kind: .missingKey, depth: depth))
            }
            return
        }
        let ranked = outcomes.enumerated().map { index, found in
            (index: index, reach: found.map(\.depth).max() ?? depth, count: found.count)
        }
        guard let best = ranked.max(by: { ($0.reach, -$0.count, -$0.index) < ($1.reach, -$1.count, -$1.index) }) else {
            return
        }
        if best.reach > depth {
            violations.append(contentsOf: outcomes[best.index])
            return
        }
        let typeMatches = branches.indices.filter { Self.branchAcceptsType(branches[$0], node: node, root: root) }
        if let description = rules["description"]?.stringValue {
            violations.append(
                .init(
                    location: node.location, message: "expected \(description), found \(Self.describe(node))",
                    depth: depth))
        } else if typeMatches.count == 1 {
            violations.append(contentsOf: outcomes[typeMatches[0]])
        } else {
            let expected = branches.compactMap { Self.describeBranch($0, root: root) }
            let text = expected.isEmpty ? "one of the allowed forms" : expected.joined(separator: " or ")
            violations.append(
                .init(location: node.location, message: "expected \(text), found \(Self.describe(node))", depth: depth))
        }
    }

    /// `a step`, `an argument`, or `this mapping` when the schema has no title.
    private static func article(_ title: String?) -> String {
        guard let title else { return "this mapping" }
        return ("aeiou".contains(title.prefix(1)) ? "an " : "a ") + title
    }

    private static func singleRequiredKey(_ branch: SpecValue) -> String? {
        guard let members = branch.objectValue, members.count == 1,
            let required = members["required"]?.arrayValue, required.count == 1
        else { return nil }
        return required[0].stringValue
    }

    private static func branchAcceptsType(_ branch: SpecValue, node: SpecNode, root: SpecValue) -> Bool {
        var schema = branch
        while let reference = schema["$ref"]?.stringValue, let target = resolve(reference, in: root) { schema = target }
        guard let type = schema["type"] else { return true }
        return self.node(node, hasType: type)
    }

    private static func describeBranch(_ branch: SpecValue, root: SpecValue) -> String? {
        var schema = branch
        while let reference = schema["$ref"]?.stringValue, let target = resolve(reference, in: root) { schema = target }
        if let description = schema["description"]?.stringValue { return description }
        if let type = schema["type"] { return describe(type: type) }
        return nil
    }

    // MARK: Helpers

    private static func node(_ node: SpecNode, hasType type: SpecValue) -> Bool {
        let names = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
        return names.contains { name in
            switch name {
            case "integer": return node.scalar?.intValue != nil && node.scalar?.boolValue == nil
            case "number": return node.scalar?.doubleValue != nil
            default: return node.typeName == name
            }
        }
    }

    private static func describe(type: SpecValue) -> String {
        let names = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? "?"]
        return names.map { name in
            switch name {
            case "integer", "array", "object": return "an \(name)"
            case "null": return "null"
            default: return "a \(name)"
            }
        }.joined(separator: " or ")
    }

    /// `string "abc"`, `integer 3`, `a mapping`, for messages.
    static func describe(_ node: SpecNode) -> String {
        switch node.kind {
        case .scalar(.null): return "null"
        case .scalar(let value): return "\(value.typeName) \(abbreviate(value.description))"
        case .sequence(let elements): return "a list of \(elements.count)"
        case .mapping(let entries):
            let keys = entries.prefix(3).map(\.key).joined(separator: ", ")
            return entries.isEmpty ? "an empty mapping" : "a mapping with \(keys)\(entries.count > 3 ? ", ..." : "")"
        }
    }

    private static func abbreviate(_ text: String) -> String {
        text.count > 60 ? String(text.prefix(57)) + "..." : text
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number ? String(Int(number)) : String(number)
    }

    private static func equal(_ lhs: SpecValue, _ rhs: SpecValue) -> Bool {
        ValueMatcher.equal(lhs, rhs)
    }
}

/// A schema that uses something the validator does not implement, or does not hold together.
struct SchemaDefinitionError: Error, Sendable, CustomStringConvertible {
    /// A JSON pointer to the offending schema (`#/$defs/step`).
    var path: String
    var message: String
    var description: String { "schema \(path): \(message)" }
}
