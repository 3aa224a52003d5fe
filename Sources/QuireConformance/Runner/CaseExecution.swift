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

    private let session: any EngineSession
    private let scenario: Scenario
    private let directory: URL
    /// Where the case starts, for problems that belong to no step.
    private let location: SourceLocation
    private var variables: [String: SpecValue]
    /// Measurements and other output for the report.
    private(set) var notes: [String] = []

    /// What the engine can do; nil means everything.
    private let capabilities: Set<EngineCapability>?

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

    private func context(_ location: SourceLocation) -> StepContext {
        StepContext(
            location: location, directory: directory, specDirectory: scenario.specDirectory, seed: scenario.seed)
    }

    // MARK: Given

    /// Creates the given collections and saves the given documents, with ordinary steps.
    private func setUp() throws {
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

    private func execute(_ step: StepTemplate) throws {
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

    private func runBatch(_ step: StepTemplate, arguments value: SpecValue, rendered: String) throws -> Result<
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
    private func runRepeat(_ step: StepTemplate, arguments value: SpecValue, rendered: String) throws {
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

    private func substitute(_ value: SpecValue, in step: StepTemplate) throws -> SpecValue {
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

    // MARK: Expectations

    private func check(
        _ expectation: Expectation, against outcome: Result<SpecValue?, any Error>, step: StepTemplate,
        rendered: String, performed: Step?
    ) throws {
        func fail(_ message: String, expected: String, actual: String) -> Stop {
            Stop(
                status: .failed,
                failure: CaseFailure(
                    message: message, location: step.location, step: rendered,
                    expected: expected, actual: actual))
        }
        switch outcome {
        case .failure(let thrown):
            let error = Self.engineError(thrown)
            guard let pattern = expectation.error else {
                if error.domain == EngineError.runnerDomain {
                    // The runner could not do the step as written; the store was never asked.
                    throw Stop(
                        status: .error,
                        failure: CaseFailure(
                            message: "the runner refused \(step.keyword) (not an error of the store)",
                            location: step.location,
                            step: rendered, expected: "success", actual: "error \(error)"))
                }
                let stop = fail("\(step.keyword) failed", expected: "success", actual: "error \(error)")
                // The contract broke (an unsupported step), not the store's behaviour.
                throw error.domain == EngineError.conformanceDomain ? Stop(status: .error, failure: stop.failure) : stop
            }
            guard pattern.matches(error) else {
                throw fail(
                    "\(step.keyword) failed with another error", expected: pattern.description, actual: "error \(error)"
                )
            }
        case .success(let result):
            if let pattern = expectation.error {
                let returned = result.map { ", returned \(ValueMatcher.render($0))" } ?? ""
                throw fail(
                    "\(step.keyword) succeeded but should have failed", expected: pattern.description,
                    actual: "success\(returned)")
            }
            let actual = result ?? .null
            let typed = expectation.typed
            if let expected = expectation.value {
                let compared = Self.withoutMeta(actual, unlessIn: expected)
                if let mismatch = ValueMatcher.mismatch(
                    expected: expected, actual: compared, partial: false, typed: typed)
                {
                    throw fail(
                        "\(step.keyword) returned another value (\(mismatch.description))",
                        expected: ValueMatcher.render(expected), actual: ValueMatcher.render(compared))
                }
            }
            if let expected = expectation.partial,
                let mismatch = ValueMatcher.mismatch(expected: expected, actual: actual, partial: true, typed: typed)
            {
                throw fail(
                    "\(step.keyword) returned a value that does not match (\(mismatch.description))",
                    expected: "a value matching \(ValueMatcher.render(expected))", actual: ValueMatcher.render(actual))
            }
            if let unwanted = expectation.notEqual {
                let compared = Self.withoutMeta(actual, unlessIn: unwanted)
                if ValueMatcher.mismatch(expected: unwanted, actual: compared, partial: false, typed: typed) == nil {
                    throw fail(
                        "\(step.keyword) returned the value it should differ from",
                        expected: "a value other than \(ValueMatcher.render(unwanted))",
                        actual: ValueMatcher.render(compared))
                }
            }
            if !expectation.contains.isEmpty || !expectation.lacks.isEmpty || expectation.keyCount != nil {
                guard case .object(var members) = actual else {
                    throw fail(
                        "\(step.keyword) returned no document to look into", expected: "a document",
                        actual: ValueMatcher.render(actual))
                }
                members[DocumentSnapshot.metaKey] = nil
                let body = SpecValue.object(members)
                for key in expectation.contains where body.value(at: key.split(separator: ".").map(String.init)) == nil
                {
                    throw fail(
                        "\(step.keyword) returned a document without key '\(key)'", expected: "a value at '\(key)'",
                        actual: ValueMatcher.render(body))
                }
                for key in expectation.lacks {
                    if let found = body.value(at: key.split(separator: ".").map(String.init)) {
                        throw fail(
                            "\(step.keyword) returned a document with key '\(key)'", expected: "no value at '\(key)'",
                            actual: ValueMatcher.render(found))
                    }
                }
                if let count = expectation.keyCount, members.count != count {
                    throw fail(
                        "\(step.keyword) returned a document with another number of keys",
                        expected: "\(count) keys (_meta not counted)",
                        actual: "\(members.count): \(members.keys.sorted().joined(separator: ", "))")
                }
            }
            if !expectation.textMatches.isEmpty || !expectation.textLacks.isEmpty {
                guard case .string(let text) = actual else {
                    throw fail(
                        "\(step.keyword) returned no text to search", expected: "text",
                        actual: ValueMatcher.render(actual))
                }
                for pattern in expectation.textMatches where !Self.contains(text, pattern) {
                    throw fail(
                        "\(step.keyword) returned text without a match of /\(pattern)/",
                        expected: "text matching /\(pattern)/", actual: ValueMatcher.render(actual, limit: 2000))
                }
                for pattern in expectation.textLacks where Self.contains(text, pattern) {
                    throw fail(
                        "\(step.keyword) returned text with a match of /\(pattern)/",
                        expected: "text without a match of /\(pattern)/",
                        actual: ValueMatcher.render(actual, limit: 2000))
                }
            }
            if let count = expectation.count {
                let found: Int?
                switch actual {
                case .int(let number): found = number
                case .array(let elements): found = elements.count
                case .object(let members): found = members.count
                default: found = nil
                }
                if found != count {
                    throw fail(
                        "\(step.keyword) returned another count", expected: "count \(count)",
                        actual: found.map { "count \($0): \(ValueMatcher.render(actual))" }
                            ?? ValueMatcher.render(actual))
                }
            }
        }
        if expectation.needsDocument {
            try checkDocuments(
                expectation, step: step, rendered: rendered, performed: performed, outcome: outcome, fail: fail)
        }
    }

    /// Whether `text` contains a match of `pattern` (checked to compile when the spec loaded).
    private static func contains(_ text: String, _ pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return false }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    private func checkDocuments(
        _ expectation: Expectation, step: StepTemplate, rendered: String, performed: Step?,
        outcome: Result<SpecValue?, any Error>, fail: (String, String, String) -> Stop
    ) throws {
        func stepDocument() throws -> DocumentReference {
            if let reference = performed?.document { return reference }
            // A save without an ID: the engine chose one, and returned it.
            if case .success(let value?) = outcome, let meta = value[DocumentSnapshot.metaKey],
                let id = meta["id"]?.stringValue
            {
                return DocumentReference(
                    id, in: meta["collection"]?.stringValue.map(CollectionName.init(fullName:)) ?? .default)
            }
            throw specError(
                "\(step.keyword) is not about one document; name it in the expectation ({id: ..., collection: ...})",
                at: step.expectLocation ?? step.location, step: rendered)
        }
        func state(of reference: DocumentReference) throws -> DocumentState {
            do {
                return try session.documentState(of: reference)
            } catch {
                try Self.skipIfMissingCapability(error, at: step.location, step: rendered)
                throw Stop(
                    status: .error,
                    failure: CaseFailure(
                        message: "could not read the state of document \(reference)", location: step.location,
                        step: rendered,
                        actual: "error \(Self.engineError(error))"))
            }
        }
        for (check, target) in expectation.documentChecks {
            let reference = try target ?? stepDocument()
            let found = try state(of: reference)
            guard check.accepts(found) else {
                throw fail(
                    "document \(reference) \(Self.failureWording(check)): it is \(Self.describe(found))",
                    check.expectation, Self.describe(found))
            }
        }
        guard !expectation.unexpectedProperties.isEmpty || expectation.missingBlob != nil else { return }
        let reference = try stepDocument()
        guard case .live(let snapshot) = try state(of: reference) else {
            throw fail("document \(reference) was not found", "a live document", "not found")
        }
        let body = SpecValue.object(snapshot.properties)
        for key in expectation.unexpectedProperties {
            if let value = body.value(at: key.split(separator: ".").map(String.init)) {
                throw fail(
                    "document \(reference) had an unexpected property at key '\(key)'",
                    "no property at '\(key)'", ValueMatcher.render(value))
            }
        }
        if let key = expectation.missingBlob {
            guard let blob = body.value(at: key.split(separator: ".").map(String.init)),
                blob["@type"] == "blob", let digest = blob["digest"]?.stringValue
            else {
                throw fail(
                    "document \(reference) has no blob at '\(key)'", "a blob at '\(key)'",
                    ValueMatcher.render(body.value(at: key.split(separator: ".").map(String.init)) ?? .null))
            }
            let stored: Bool
            do {
                stored = try session.isBlobStored(digest: digest)
            } catch {
                throw Stop(
                    status: .error,
                    failure: CaseFailure(
                        message: "could not check blob \(digest)", location: step.location, step: rendered,
                        actual: "error \(Self.engineError(error))"))
            }
            if stored {
                throw fail(
                    "the blob at '\(key)' in document \(reference) is stored", "missing blob \(digest)", "stored")
            }
        }
    }

    // MARK: Performance

    /// The variables a workload's and a preparation's steps may use besides the case's:
    /// `i` (the iteration, from 0), `bucket` (`i` mod 50, so each value holds 2% of the
    /// documents), `random` (a seeded number in 0..<prepareIterations) and `hotel` (a
    /// travel-sized document, hotel `i` of ``TravelDocuments``).
    static let iterationVariables: Set<String> = ["i", "bucket", "random", "hotel"]

    /// What one round measured.
    struct RoundTimes {
        var workload: Double
        var baseline: Double
    }

    /// Decodes `steps` for `iterations` iterations, so that timed loops are engine work only.
    private func plan(_ steps: [StepTemplate], iterations: Int, range: Int) throws -> [Step] {
        var planned: [Step] = []
        planned.reserveCapacity(iterations * steps.count)
        var random = SeededRandom(seed: scenario.seed)
        let usesHotels = steps.contains { step in
            Template.references(in: step.arguments).contains { $0.name == "hotel" }
        }
        for iteration in 0..<iterations {
            if usesHotels {
                do {
                    variables["hotel"] = try TravelDocuments.hotelValue(iteration)
                } catch {
                    throw Stop(
                        status: .error,
                        failure: CaseFailure(
                            message: "the travel documents are not available", location: location,
                            actual: "error \(Self.engineError(error))"))
                }
            }
            variables["i"] = .int(iteration)
            variables["bucket"] = .int(iteration % 50)
            variables["random"] = .int(Int(random.next() % UInt64(max(range, 1))))
            for step in steps {
                let arguments = try substitute(step.arguments, in: step)
                do {
                    planned.append(
                        try StepDecoder.decode(
                            keyword: step.keyword, arguments: arguments, specDirectory: scenario.specDirectory))
                } catch {
                    throw specError("\(error)", at: step.location, step: step.rendered(arguments: arguments))
                }
            }
        }
        for name in Self.iterationVariables { variables[name] = nil }
        return planned
    }

    /// Prepares (untimed), then times the workload at `iterations` and the baseline, in the
    /// order asked: rounds alternate it, so a neighbour's load that comes and goes hits both.
    /// With `threads` above 1 the iterations are shared among that many threads, each a
    /// contiguous run of them, and the time is until the last thread ends.
    func measure(_ performance: PerformanceTemplate, iterations: Int, threads: Int, baselineFirst: Bool) throws
        -> RoundTimes
    {
        var context = context(performance.location)
        context.discardsResult = true
        context.threads = threads
        if !performance.prepare.isEmpty {
            let prepared = try plan(
                performance.prepare, iterations: performance.prepareIterations, range: performance.prepareIterations)
            do {
                try session.inBatch { for step in prepared { _ = try self.session.perform(step, in: context) } }
            } catch {
                throw Stop(
                    status: .error,
                    failure: CaseFailure(
                        message: "preparing the workload failed", location: performance.location,
                        actual: "error \(Self.engineError(error))"))
            }
        }
        do {
            try session.prepareBaseline(
                named: performance.baseline, iterations: iterations, prepareIterations: performance.prepareIterations,
                in: context)
        } catch {
            throw Stop(
                status: .error,
                failure: CaseFailure(
                    message: "preparing the baseline '\(performance.baseline)' failed", location: performance.location,
                    actual: "error \(Self.engineError(error))"))
        }
        let planned = try plan(performance.workload, iterations: iterations, range: performance.prepareIterations)
        let clock = ContinuousClock()
        func timeWorkload() throws -> Double {
            let start = clock.now
            do {
                let work = { for step in planned { _ = try self.session.perform(step, in: context) } }
                if performance.inBatch {
                    try session.inBatch(work)
                } else if threads > 1 {
                    try Self.perform(
                        planned, stepsPerIteration: performance.workload.count, on: threads,
                        session: session, context: context)
                } else {
                    try work()
                }
            } catch {
                let failure = CaseFailure(
                    message: "the workload failed", location: performance.location,
                    expected: "success", actual: "error \(Self.engineError(error))")
                throw Stop(
                    status: Self.engineError(error).domain == EngineError.conformanceDomain ? .error : .failed,
                    failure: failure)
            }
            return Self.seconds(clock.now - start)
        }
        func timeBaseline() throws -> Double {
            let start = clock.now
            do {
                try session.runBaseline(named: performance.baseline, iterations: iterations, in: context)
            } catch {
                throw Stop(
                    status: .error,
                    failure: CaseFailure(
                        message: "the baseline '\(performance.baseline)' failed", location: performance.location,
                        actual: "error \(Self.engineError(error))"))
            }
            return max(Self.seconds(clock.now - start), 1e-9)
        }
        if baselineFirst {
            let baseline = try timeBaseline()
            return RoundTimes(workload: try timeWorkload(), baseline: baseline)
        }
        let workload = try timeWorkload()
        return RoundTimes(workload: workload, baseline: try timeBaseline())
    }

    /// Performs `planned` on `threads` threads at once, each a contiguous share of whole
    /// iterations; rethrows the first error once every thread has ended. The engine session is
    /// used from these threads concurrently: a workload on threads consists of steps an
    /// engine serves concurrently (reads), which is what such a case measures.
    private static func perform(
        _ planned: [Step], stepsPerIteration: Int, on threads: Int, session: any EngineSession, context: StepContext
    ) throws {
        let shared = UncheckedSession(session: session)
        let iterations = planned.count / max(stepsPerIteration, 1)
        let firstError = Locked<(any Error)?>(nil)
        let group = DispatchGroup()
        for thread in 0..<threads {
            let lower = iterations * thread / threads * stepsPerIteration
            let upper = iterations * (thread + 1) / threads * stepsPerIteration
            let range = lower..<upper
            let share = Array(planned[range])
            group.enter()
            let worker = Thread {
                do {
                    for step in share { _ = try shared.session.perform(step, in: context) }
                } catch {
                    firstError.withLock { if $0 == nil { $0 = error } }
                }
                group.leave()
            }
            worker.stackSize = 8 << 20
            worker.start()
        }
        group.wait()
        if let error = firstError.withLock({ $0 }) { throw error }
    }

    /// A session handed to a workload's threads (see ``perform(_:stepsPerIteration:on:session:context:)``).
    private struct UncheckedSession: @unchecked Sendable {
        // Safe because only `perform` shares it, for a workload made of steps an engine serves
        // concurrently (reads), and the case uses the session again only after every thread ended.
        let session: any EngineSession
    }

    // MARK: Capabilities

    /// Skips the case when the engine lacks something `step` needs.
    private func requireCapabilities(of step: Step, at location: SourceLocation, rendered: String) throws {
        guard let capabilities, let missing = step.requiredCapabilities.first(where: { !capabilities.contains($0) })
        else { return }
        throw Self.skip(
            .missingCapability(missing, "the engine cannot perform \(step.keyword) as this step asks"), at: location,
            step: rendered)
    }

    /// Skips the case when the step's expectation reads a member of its result the engine
    /// does not report (``Step/resultCapabilities``).
    private func requireResultCapabilities(
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

    private func specError(_ message: String, at location: SourceLocation, step: String?) -> Stop {
        Stop(status: .error, failure: CaseFailure(message: "spec error: \(message)", location: location, step: step))
    }

    static func engineError(_ error: any Error) -> EngineError {
        if let error = error as? EngineError { return error }
        return EngineError(domain: "Swift", code: String(describing: type(of: error)), message: "\(error)")
    }

    /// `value:` on a document compares its properties; `_meta` only when the spec lists it.
    private static func withoutMeta(_ actual: SpecValue, unlessIn expected: SpecValue) -> SpecValue {
        guard case .object(var members) = actual, members[DocumentSnapshot.metaKey] != nil,
            expected[DocumentSnapshot.metaKey] == nil
        else { return actual }
        members[DocumentSnapshot.metaKey] = nil
        return .object(members)
    }

    private static func describe(_ state: DocumentState) -> String {
        switch state {
        case .live(let snapshot): return "live (revision \(snapshot.revisionID))"
        case .deleted(let revisionID): return "a tombstone (revision \(revisionID))"
        case .absent: return "absent"
        }
    }

    /// The test kit's wording for each broken check.
    private static func failureWording(_ check: Expectation.DocumentCheck) -> String {
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
