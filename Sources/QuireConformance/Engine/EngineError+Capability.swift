extension EngineError {
    /// The code of ``missingCapability(_:_:)`` errors.
    package static let missingCapabilityCode = "missingCapability"

    /// The engine cannot express what a step asks (`detail` says what); the runner reports the
    /// case as skipped, naming the capability.
    package static func missingCapability(_ capability: EngineCapability, _ detail: String) -> EngineError {
        EngineError(
            domain: conformanceDomain, code: missingCapabilityCode,
            message: "needs capability '\(capability)': \(detail)")
    }

    /// Whether this is a ``missingCapability(_:_:)`` error.
    package var isMissingCapability: Bool { domain == Self.conformanceDomain && code == Self.missingCapabilityCode }
}
