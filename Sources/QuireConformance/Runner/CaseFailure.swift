/// Why a case failed or could not run, with enough context to act on it without rerunning.
public struct CaseFailure: Sendable, Hashable {
    /// One sentence.
    public var message: String
    /// The step (or case, or file position) at fault.
    public var location: SourceLocation
    /// The step as run, with its variables substituted (`createCollection {"name":"_a"}`).
    public var step: String?
    /// What was expected, when there is an expectation to show.
    public var expected: String?
    /// What happened instead.
    public var actual: String?

    /// Makes a failure.
    public init(
        message: String, location: SourceLocation, step: String? = nil, expected: String? = nil, actual: String? = nil
    ) {
        self.message = message
        self.location = location
        self.step = step
        self.expected = expected
        self.actual = actual
    }

    /// The message, then `step:`, `expected:` and `actual:` lines when present.
    public var details: String {
        var lines = [message]
        if let step { lines.append("step:     \(step)") }
        if let expected { lines.append("expected: \(expected)") }
        if let actual { lines.append("actual:   \(actual)") }
        return lines.joined(separator: "\n")
    }
}
