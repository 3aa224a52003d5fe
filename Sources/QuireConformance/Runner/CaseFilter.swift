import Foundation

/// Chooses cases by tag, name or regular expression.
///
/// Written on the command line as `tag:NAME`, `/REGEX/`, or a name. A name matches a case's
/// full name (`... [name=_a]`) or its name as written (all its vector rows). A regular
/// expression is searched for in the case id, `path :: name`.
public enum CaseFilter: Sendable, Hashable, CustomStringConvertible {
    /// Cases carrying the tag (their own or their file's).
    case tag(String)
    /// Cases with this name, expanded or as written.
    case name(String)
    /// Cases whose id contains a match.
    case regex(String)

    /// Reads `tag:NAME`, `/REGEX/` or a name.
    ///
    /// - Throws: ``SelectionError`` for a regular expression that does not compile.
    public init(parsing text: String) throws {
        if text.hasPrefix("tag:") {
            self = .tag(String(text.dropFirst(4)))
        } else if text.count >= 2, text.hasPrefix("/"), text.hasSuffix("/") {
            self = try .validatedRegex(String(text.dropFirst().dropLast()))
        } else {
            self = .name(text)
        }
    }

    /// A regex filter, after checking that the pattern compiles.
    public static func validatedRegex(_ pattern: String) throws -> CaseFilter {
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            throw SelectionError(description: "the filter /\(pattern)/ is not a valid regular expression")
        }
        return .regex(pattern)
    }

    /// `tag:x`, `/x/` or the name.
    public var description: String {
        switch self {
        case .tag(let tag): return "tag:\(tag)"
        case .name(let name): return name
        case .regex(let pattern): return "/\(pattern)/"
        }
    }
}

/// A part of a suite: `--shard 2/4` is the second of four.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// Which part, from 1.
    package let index: Int
    /// How many parts.
    package let count: Int

    /// Makes a shard.
    ///
    /// - Throws: ``SelectionError`` unless `1 <= index <= count`.
    package init(index: Int, count: Int) throws {
        guard count >= 1, (1...count).contains(index) else {
            throw SelectionError(description: "a shard is I/N with 1 <= I <= N, not \(index)/\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Reads `I/N`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw SelectionError(description: "a shard is written I/N (for example 2/4), not '\(text)'")
        }
        try self.init(index: index, count: count)
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }
}

/// Which cases of a suite run.
///
/// Filters keep a case when any of them matches (no filter keeps all); a file that could not
/// be read is always kept, so its error is never filtered away. Sharding then deals the
/// remaining cases in order: the k-th (from 0) goes to shard `k % N + 1`, so shards are
/// balanced and disjoint and their union is the whole selection.
public struct CaseSelection: Sendable, Hashable {
    /// The filters.
    package var filters: [CaseFilter]
    /// The shard, if the suite is split.
    package var shard: Shard?

    /// Makes a selection; the default keeps everything.
    public init(filters: [CaseFilter] = [], shard: Shard? = nil) {
        self.filters = filters
        self.shard = shard
    }

    /// The selected cases, in the order given.
    package func apply(to cases: [ConformanceCase]) -> [ConformanceCase] {
        let expressions = filters.compactMap { filter -> NSRegularExpression? in
            guard case .regex(let pattern) = filter else { return nil }
            return try? NSRegularExpression(pattern: pattern)
        }
        let kept = cases.filter { testCase in
            if filters.isEmpty || testCase.name == SpecFile.invalidFileCaseName { return true }
            return filters.contains { filter in
                switch filter {
                case .tag(let tag): return testCase.tags.contains(tag)
                case .name(let name): return testCase.name == name || testCase.baseName == name
                case .regex: return false
                }
            }
                || expressions.contains { expression in
                    expression.firstMatch(in: testCase.id, range: NSRange(testCase.id.startIndex..., in: testCase.id))
                        != nil
                }
        }
        guard let shard else { return kept }
        return kept.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
    }
}

/// A filter or shard that cannot be used.
public struct SelectionError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String
}
