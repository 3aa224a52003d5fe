import Foundation
import Quire

// Skipping a step the engine cannot run, before it runs.
extension CaseExecution {
    /// Skips the case when the engine lacks something `step` needs.
    func requireCapabilities(of step: Step, at location: SourceLocation, rendered: String) throws {
        guard let capabilities, let missing = step.requiredCapabilities.first(where: { !capabilities.contains($0) })
        else { return }
        throw Self.skip(
            .missingCapability(missing, "the engine cannot perform \(step.keyword) as this step asks"), at: location,
            step: rendered)
    }

    /// Skips the case when the step's expectation reads a member of its result the engine
    /// does not report (``Step/resultCapabilities``).
    func requireResultCapabilities(
        of step: Step, expecting expect: SpecValue?, at location: SourceLocation, rendered: String
    ) throws {
        guard let capabilities, let (members, capability) = Step.resultCapabilities[step.keyword],
            !capabilities.contains(capability), let expect
        else { return }
        let read = ["value", "matches"].compactMap { expect[$0]?.objectValue?.keys }.joined()
        if let member = read.first(where: members.contains) {
            throw Self.skip(
                .missingCapability(capability, "the expectation reads '\(member)', which the engine does not report"),
                at: location, step: rendered)
        }
    }

    /// Skips the case when `error` says the engine lacks a capability.
    static func skipIfMissingCapability(_ error: any Error, at location: SourceLocation, step: String?) throws {
        if let error = error as? EngineError, error.isMissingCapability { throw skip(error, at: location, step: step) }
    }

    /// A stop that skips the case; its message is the skip reason.
    static func skip(_ error: EngineError, at location: SourceLocation, step: String?) -> Stop {
        Stop(status: .skipped, failure: CaseFailure(message: error.message, location: location, step: step))
    }
}
