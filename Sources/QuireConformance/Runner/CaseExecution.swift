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

    // MARK: Given

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

    // MARK: Steps

    func execute(_ step: StepTemplate) throws {
        let arguments = try substitute(step.arguments, in: step)
        let rendered = step.rendered(arguments: arguments)
        let expectation: Expectation
        do {
            expectation = try Expectation(try substitute(step.expect ?? .null, in: step))
        } catch let error as ArgumentError {
            throw specError(error.description, at: step.expectLocation ?? step.location, step: rendered)
        }
        var performed: Step?
        let outcome: Result<SpecValue?, any Error>
        switch step.keyword {
        case "set":
            for (name, value) in arguments.objectValue ?? [:] { variables[name] = value }
            outcome = .success(nil)
        case "inspect":
            outcome = .success(arguments)
        case "batch":
            outcome = try runBatch(step, arguments: arguments, rendered: rendered)
        case "repeat":
            try runRepeat(step, arguments: arguments, rendered: rendered)
            outcome = .success(nil)
        default:
            let decoded: Step
            do {
                decoded = try StepDecoder.decode(
                    keyword: step.keyword, arguments: arguments, specDirectory: scenario.specDirectory)
            } catch {
                throw specError("\(error)", at: step.location, step: rendered)
            }
            performed = decoded
            try requireCapabilities(of: decoded, at: step.location, rendered: rendered)
            try requireResultCapabilities(of: decoded, expecting: step.expect, at: step.location, rendered: rendered)
            var stepContext = context(step.location)
            stepContext.objectName = step.bind
            stepContext.source = StepSource(keyword: step.keyword, arguments: arguments)
            outcome = Result { try session.perform(decoded, in: stepContext) }
        }
        if case .failure(let stop as Stop) = outcome { throw stop }
        if case .failure(let error) = outcome {
            try Self.skipIfMissingCapability(error, at: step.location, step: rendered)
        }
        try check(expectation, against: outcome, step: step, rendered: rendered, performed: performed)
        if case .success(let value) = outcome, let name = step.bind {
            variables[name] = value ?? .null
        }
    }

    func runBatch(_ step: StepTemplate, arguments value: SpecValue, rendered: String) throws -> Result<
        SpecValue?, any Error
    > {
        let arguments: Arguments
        let limit: Int?
        let abort: Bool
        do {
            arguments = try Arguments(keyword: "batch", value)
            limit = try arguments.integer("throwAfter")
            abort = try arguments.bool("throw") ?? false || limit != nil
        } catch {
            throw specError("\(error)", at: step.location, step: rendered)
        }
        if let capabilities, !capabilities.contains(.transactions) {
            throw Self.skip(
                .missingCapability(.transactions, "the engine runs no batch as one transaction"), at: step.location,
                step: rendered)
        }
        let steps = step.nested.prefix(limit ?? step.nested.count)
        if let skipped = step.nested.dropFirst(steps.count).first(where: { $0.expect != nil }) {
            throw specError(
                "this step has an expectation but never runs: the batch stops after \(steps.count) of its steps (throwAfter)",
                at: skipped.expectLocation ?? skipped.location, step: skipped.rendered())
        }
        return Result {
            try session.inBatch {
                for nested in steps { try execute(nested) }
                if abort { throw EngineError.batchAborted }
            }
            return nil
        }
    }

    /// Runs a `repeat`'s steps `times` times, the iteration bound to `variable` when one is
    /// named (`from`, 0 unless given, then `by` more, 1 unless given, each time); a broken
    /// expectation ends the case there, saying in which iteration.
    func runRepeat(_ step: StepTemplate, arguments value: SpecValue, rendered: String) throws {
        let times: Int
        let variable: String?
        let first: Int
        let increment: Int
        do {
            let arguments = try Arguments(keyword: "repeat", value)
            guard let count = try arguments.integer("times"), count >= 0 else {
                throw ArgumentError("repeat needs 'times', a count of 0 or more")
            }
            times = count
            variable = try arguments.optionalString("variable")
            first = try arguments.integer("from") ?? 0
            increment = try arguments.integer("by") ?? 1
            if variable == nil, arguments["from"] != nil || arguments["by"] != nil {
                throw ArgumentError("repeat: 'from' and 'by' count the 'variable'; name one")
            }
        } catch {
            throw specError("\(error)", at: step.location, step: rendered)
        }
        if times == 0, let skipped = step.nested.first(where: { $0.expect != nil }) {
            throw specError(
                "this step has an expectation but never runs: the repeat runs 0 times",
                at: skipped.expectLocation ?? skipped.location, step: skipped.rendered())
        }
        let saved = variable.flatMap { variables[$0] }
        defer { if let variable { variables[variable] = saved } }
        for iteration in 0..<times {
            if let variable { variables[variable] = .int(first + iteration * increment) }
            do {
                for nested in step.nested { try execute(nested) }
            } catch var stop as Stop {
                stop.failure.message += " (repeat iteration \(iteration + 1) of \(times))"
                throw stop
            }
        }
    }

    func substitute(_ value: SpecValue, in step: StepTemplate) throws -> SpecValue {
        do {
            return try Template.substitute(value, with: variables)
        } catch let error as Template.Unresolved {
            if let capabilities, !capabilities.contains(.sequences), error.description.contains("._meta.sequence}") {
                // An engine without sequences returns documents without `_meta.sequence`.
                throw Self.skip(
                    .missingCapability(.sequences, "the engine reports no document sequences"), at: step.location,
                    step: step.rendered())
            }
            throw specError(error.description, at: step.location, step: step.rendered())
        }
    }

    // MARK: Capabilities

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

    // MARK: Helpers

    func specError(_ message: String, at location: SourceLocation, step: String?) -> Stop {
        Stop(status: .error, failure: CaseFailure(message: "spec error: \(message)", location: location, step: step))
    }

    static func engineError(_ error: any Error) -> EngineError {
        if let error = error as? EngineError { return error }
        return EngineError(domain: "Swift", code: String(describing: type(of: error)), message: "\(error)")
    }

    /// `value:` on a document compares its properties; `_meta` only when the spec lists it.
    static func withoutMeta(_ actual: SpecValue, unlessIn expected: SpecValue) -> SpecValue {
        guard case .object(var members) = actual, members[DocumentSnapshot.metaKey] != nil,
            expected[DocumentSnapshot.metaKey] == nil
        else { return actual }
        members[DocumentSnapshot.metaKey] = nil
        return .object(members)
    }

    static func describe(_ state: DocumentState) -> String {
        switch state {
        case .live(let snapshot): return "live (revision \(snapshot.revisionID))"
        case .deleted(let revisionID): return "a tombstone (revision \(revisionID))"
        case .absent: return "absent"
        }
    }

    /// The test kit's wording for each broken check.
    static func failureWording(_ check: Expectation.DocumentCheck) -> String {
        switch check {
        case .notFound: return "was found"
        case .deleted: return "was not deleted"
        case .notDeleted: return "was deleted or not found"
        case .purged: return "was not purged"
        case .notPurged: return "was purged"
        case .shouldNotExist: return "should not exist"
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
