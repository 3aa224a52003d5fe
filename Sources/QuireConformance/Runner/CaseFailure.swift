/// Why a case failed or could not run, with enough context to act on it without rerunning.
public struct CaseFailure: Sendable, Hashable {
    /// One sentence.
    public var message: String
    /// The step (or case, or file position) at fault.
    package var location: SourceLocation
    /// The step as run, with its variables substituted (`createCollection {"name":"_a"}`).
    package var step: String?
    /// What was expected, when there is an expectation to show.
    package var expected: String?
    /// What happened instead.
    package var actual: String?

    /// Makes a failure.
    package init(
        message: String, location: SourceLocation, step: String? = nil, expected: String? = nil, actual: String? = nil
    ) {
        self.message = message
        self.location = location
        self.step = step
        self.expected = expected
        self.actual = actual
    }

    /// The message, then `step:`, `expected:` and `actual:` lines when present.
    package var details: String {
        var lines = [message]
        if let step { lines.append("step:     \(step)") }
        if let expected { lines.append("expected: \(expected)") }
        if let actual { lines.append("actual:   \(actual)") }
        return lines.joined(separator: "\n")
    }
}
