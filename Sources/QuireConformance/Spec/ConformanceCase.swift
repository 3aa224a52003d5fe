import Foundation

/// One expanded case, ready to run: a plain case, one row of a vector table, or the stand-in
/// for a file or case that could not be read (running it reports the spec error).
///
/// Cases are values: a parameterized test can take the list from
/// ``ConformanceSuite/cases`` and hand each to ``ConformanceRunner/run(_:)``.
public struct ConformanceCase: Sendable, Identifiable, CustomStringConvertible {
    /// `path :: name`: unique in a suite and stable from run to run.
    public let id: String
    /// The spec file's path as discovered.
    public let file: String
    /// The case name, with vector values for an expanded row (`... [name=_a]`).
    public let name: String
    /// The name as written in the file, before expansion.
    package let baseName: String
    /// The file's tags followed by the case's own.
    package let tags: [String]
    /// Where the case starts.
    package let location: SourceLocation
    /// The vector variables of this row, in the order they were declared.
    package let bindings: [(name: String, value: SpecValue)]
    /// The Couchbase Lite tests the case checks (`covers:`), as `Class.testName`.
    package let covers: [String]
    /// How a real Couchbase Lite answers this case differently and why Quire keeps its own
    /// answer (`reference:`): REFERENCE.md lists such a case as a known difference.
    package let reference: String?
    let content: Content

    enum Content: Sendable {
        case scenario(Scenario)
        case invalid([SpecError])
    }

    init(
        file: String, name: String, baseName: String, tags: [String], location: SourceLocation,
        bindings: [(name: String, value: SpecValue)], covers: [String] = [], reference: String? = nil,
        content: Content
    ) {
        self.id = "\(file) :: \(name)"
        self.file = file
        self.name = name
        self.baseName = baseName
        self.tags = tags
        self.location = location
        self.bindings = bindings
        self.covers = covers
        self.reference = reference
        self.content = content
    }

    /// The problems that keep the case from running, if any.
    public var specErrors: [SpecError] {
        if case .invalid(let errors) = content { return errors }
        return []
    }

    /// Whether the case is reported as skipped without running (`skip:`).
    package var isSkipped: Bool {
        if case .scenario(let scenario) = content { return scenario.skipReason != nil }
        return false
    }

    /// Whether the case is a performance case (run only with `--perf`).
    package var isPerformance: Bool {
        if case .scenario(let scenario) = content { return scenario.performance != nil }
        return false
    }

    /// The id.
    public var description: String { id }
}

/// What a runnable case does.
struct Scenario: Sendable {
    var given: Given
    var steps: [StepTemplate]
    var performance: PerformanceTemplate?
    /// Vector bindings plus built-in variables.
    var variables: [String: SpecValue]
    var specDirectory: URL
    var seed: UInt64
    var skipReason: String?
}
