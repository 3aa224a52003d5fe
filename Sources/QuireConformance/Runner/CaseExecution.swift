import Foundation
import Quire

/// Runs one scenario's steps against one engine session, keeping its variables.
final class CaseExecution {
    /// Ends the case from any depth, including from inside a batch's transaction (engines
    /// rethrow it unchanged after rolling back).
    struct Stop: Error {
        var status: CaseStatus
        var failure: CaseFailure
    }

    let session: any EngineSession
    let scenario: Scenario
    let directory: URL
    /// Where the case starts, for problems that belong to no step.
    let location: SourceLocation
    var variables: [String: SpecValue]
    /// Measurements and other output for the report.
    private(set) var notes: [String] = []

    /// What the engine can do; nil means everything.
    let capabilities: Set<EngineCapability>?

    init(
        session: any EngineSession, scenario: Scenario, directory: URL, location: SourceLocation,
        capabilities: Set<EngineCapability>? = nil
    ) {
        self.session = session
        self.capabilities = capabilities
        self.scenario = scenario
        self.directory = directory
        self.location = location
        var variables = scenario.variables
        variables["directory"] = .string(directory.path)
        self.variables = variables
    }

    /// Runs the case's setup and steps (for a performance case, what precedes the
    /// measurement); throws ``Stop`` at the first broken expectation.
    func run() throws {
        try setUp()
        for step in scenario.steps { try execute(step) }
    }

    func context(_ location: SourceLocation) -> StepContext {
        StepContext(
            location: location, directory: directory, specDirectory: scenario.specDirectory, seed: scenario.seed)
    }
}
