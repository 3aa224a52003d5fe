import Foundation
import Quire

// The case's `given:` section, set up with ordinary steps.
extension CaseExecution {
    /// Creates the given collections and saves the given documents, with ordinary steps.
    func setUp() throws {
        var setup = scenario.given.collections.map(Step.createCollection)
        setup += scenario.given.documents.map { document in
            .save(
                Step.Save(
                    collection: document.reference.collection, id: document.reference.id,
                    content: .properties(document.properties)))
        }
        for step in setup {
            do {
                try requireCapabilities(of: step, at: location, rendered: "given: \(step.keyword)")
                _ = try session.perform(step, in: context(location))
            } catch let stop as Stop {
                throw stop
            } catch {
                try Self.skipIfMissingCapability(error, at: location, step: "given: \(step.keyword)")
                throw Stop(
                    status: .error,
                    failure: CaseFailure(
                        message: "setting up 'given' failed", location: location, step: "given: \(step.keyword)",
                        actual: "error \(Self.engineError(error))"))
            }
        }
    }
}
