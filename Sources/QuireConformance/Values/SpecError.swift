/// A problem with a spec file: bad YAML, a schema violation, an unknown variable, a step
/// whose arguments do not make sense. Reported as an error (never a failure) with its location.
public struct SpecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, in a sentence that names the value at fault.
    public var message: String

    /// Makes an error.
    package init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// `file:line:column: message`.
    public var description: String { "\(location): \(message)" }
}
