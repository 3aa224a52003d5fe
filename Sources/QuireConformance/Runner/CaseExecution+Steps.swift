import Foundation
import Quire

// Running one step: its arguments substituted, batches and repeats, the engine asked and
// the result checked.
extension CaseExecution {
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
}
