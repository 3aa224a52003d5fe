/// One way a spec file breaks its JSON Schema.
struct SchemaViolation: Sendable, Hashable {
    /// What kind of rule was broken; used to pick the most useful message among alternatives.
    enum Kind: Sendable, Hashable {
        case unknownKey
        case missingKey
        case other
    }

    var location: SourceLocation
    var message: String
    var kind: Kind = .other
    /// How deep in the document the violation is; deeper means a closer match.
    var depth: Int

    var specError: SpecError { SpecError(message, at: location) }
}
