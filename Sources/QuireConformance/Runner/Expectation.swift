import Foundation

/// What a step must do, decoded from its `expect:` mapping after substitution.
struct Expectation: Sendable {
    /// An expected error: every field given must match.
    struct ErrorPattern: Sendable, CustomStringConvertible {
        var domain: String?
        var code: String?
        var messageContains: String?

        func matches(_ error: EngineError) -> Bool {
            (domain.map { $0 == error.domain } ?? true)
                && (code.map { $0 == error.code } ?? true)
                && (messageContains.map { error.message.contains($0) } ?? true)
        }

        var description: String {
            var parts = ["error " + [domain, code].compactMap { $0 }.joined(separator: ".")]
            if let messageContains { parts.append("with a message containing \(JSONText.quote(messageContains))") }
            return parts.joined(separator: " ")
        }
    }

    /// A check of what the store holds for a document, named like Couchbase's test kit.
    enum DocumentCheck: String, Sendable, CaseIterable {
        case notFound, deleted, notDeleted, purged, notPurged, shouldNotExist

        /// Whether the state passes the check.
        func accepts(_ state: DocumentState) -> Bool {
            switch (self, state) {
            case (.notFound, .live), (.notDeleted, .deleted), (.notDeleted, .absent), (.deleted, .live),
                (.deleted, .absent), (.purged, .live), (.purged, .deleted), (.shouldNotExist, .live),
                (.shouldNotExist, .deleted), (.notPurged, .absent):
                return false
            default:
                return true
            }
        }

        /// What the check expects, for messages.
        var expectation: String {
            switch self {
            case .notFound: return "not found (absent or deleted)"
            case .deleted: return "deleted (a tombstone)"
            case .notDeleted: return "live"
            case .purged: return "purged (no trace)"
            case .notPurged: return "present (live or a tombstone)"
            case .shouldNotExist: return "not to exist (no trace)"
            }
        }
    }

    var error: ErrorPattern?
    var value: SpecValue?
    var partial: SpecValue?
    var count: Int?
    /// Checks with their target; a nil target means the step's own document.
    var documentChecks: [(check: DocumentCheck, target: DocumentReference?)] = []
    var unexpectedProperties: [String] = []
    var missingBlob: String?
    /// Regular expressions the text result must contain a match of.
    var textMatches: [String] = []
    /// Regular expressions the text result must not contain a match of.
    var textLacks: [String] = []
    /// The result must differ from this value.
    var notEqual: SpecValue?
    /// Key paths the result (a document) must have.
    var contains: [String] = []
    /// Key paths the result (a document) must not have.
    var lacks: [String] = []
    /// How many keys the result (a document) has, `_meta` not counted.
    var keyCount: Int?
    /// Numbers compare with their JSON type too (`1` is not `1.0`).
    var typed = false

    /// Whether anything needs the store's view of a document.
    var needsDocument: Bool { !documentChecks.isEmpty || !unexpectedProperties.isEmpty || missingBlob != nil }

    init(_ value: SpecValue?) throws {
        guard let value, value != .null else { return }
        let members = try Arguments(keyword: "expect", value)
        switch members.values["error"] {
        case .string(let code)?: error = ErrorPattern(code: code)
        case .object?:
            let pattern = try Arguments(keyword: "expect.error", members.values["error"] ?? .null)
            error = ErrorPattern(
                domain: try pattern.optionalString("domain"), code: try pattern.optionalString("code"),
                messageContains: try pattern.optionalString("messageContains"))
        case nil: break
        case let other?: throw ArgumentError("expect: 'error' must be a code name or a mapping, not \(other)")
        }
        self.value = members.values["value"]
        partial = members.values["matches"]
        if members.values["count"] != nil {
            guard let number = try members.integer("count") else {
                throw ArgumentError("expect: 'count' must be an integer")
            }
            count = number
        }
        for check in DocumentCheck.allCases {
            guard let target = members.values[check.rawValue] else { continue }
            if target == .bool(true) {
                documentChecks.append((check, nil))
            } else {
                let reference = try Arguments(keyword: "expect.\(check.rawValue)", target)
                documentChecks.append(
                    (check, DocumentReference(try reference.string("id"), in: try reference.collection())))
            }
        }
        switch members.values["unexpectedPropertyAt"] {
        case .string(let key)?: unexpectedProperties = [key]
        case .array?: unexpectedProperties = try members.strings("unexpectedPropertyAt") ?? []
        default: break
        }
        missingBlob = try members.optionalString("missingBlob")
        notEqual = members.values["notEqual"]
        contains = try Expectation.keyPaths(members, "contains")
        lacks = try Expectation.keyPaths(members, "lacks")
        if members.values["keyCount"] != nil {
            guard let number = try members.integer("keyCount") else {
                throw ArgumentError("expect: 'keyCount' must be an integer")
            }
            keyCount = number
        }
        typed = try members.bool("typed") ?? false
        if typed, value == nil, partial == nil, notEqual == nil {
            throw ArgumentError(
                "expect: 'typed' changes how 'value', 'matches' and 'notEqual' compare numbers; give one of them")
        }
        for key in unexpectedProperties {
            let path = key.split(separator: ".", omittingEmptySubsequences: false)
            if path.contains(where: \.isEmpty) || path.first == Substring(DocumentSnapshot.metaKey) {
                throw ArgumentError(
                    "expect: 'unexpectedPropertyAt' \(JSONText.quote(key)) can never be a property of a document body, so the check could not fail"
                )
            }
        }
        textMatches = try Expectation.patterns(members, "textMatches")
        textLacks = try Expectation.patterns(members, "textLacks")
    }

    /// One key path or a list of them; an empty segment is refused.
    private static func keyPaths(_ members: Arguments, _ key: String) throws -> [String] {
        let paths: [String]
        switch members[key] {
        case .string(let path)?: paths = [path]
        case .array?: paths = try members.strings(key) ?? []
        case nil: return []
        case let other?: throw ArgumentError("expect: '\(key)' must be a key path or a list of them, not \(other)")
        }
        for path in paths where path.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
        {
            throw ArgumentError("expect: '\(key)' has a key path with an empty segment: \(JSONText.quote(path))")
        }
        return paths
    }

    /// One regular expression or a list of them, each checked to compile.
    private static func patterns(_ members: Arguments, _ key: String) throws -> [String] {
        let patterns: [String]
        switch members[key] {
        case .string(let pattern)?: patterns = [pattern]
        case .array?: patterns = try members.strings(key) ?? []
        case nil: return []
        case let other?:
            throw ArgumentError("expect: '\(key)' must be a regular expression or a list of them, not \(other)")
        }
        for pattern in patterns {
            do {
                _ = try NSRegularExpression(pattern: pattern)
            } catch {
                throw ArgumentError("expect: '\(key)' has an invalid regular expression \(JSONText.quote(pattern))")
            }
        }
        return patterns
    }
}
