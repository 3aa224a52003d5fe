import Foundation
import Quire

// Performance cases: planning a workload's steps and measuring them against a baseline.
extension CaseExecution {
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
    func plan(_ steps: [StepTemplate], iterations: Int, range: Int) throws -> [Step] {
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
    static func perform(
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
    struct UncheckedSession: @unchecked Sendable {
        // Safe because only `perform` shares it, for a workload made of steps an engine serves
        // concurrently (reads), and the case uses the session again only after every thread ended.
        let session: any EngineSession
    }
}
