import Foundation
import Quire

/// Runs cases against an engine, each isolated in its own directory.
public struct ConformanceRunner: Sendable {
    /// The engine under test.
    package let engine: any ConformanceEngine
    /// How to run.
    package var options: RunnerOptions

    /// Makes a runner.
    package init(engine: any ConformanceEngine, options: RunnerOptions = RunnerOptions()) {
        self.engine = engine
        self.options = options
    }

    /// Makes a runner for the engine registered as `name`, or for the default
    /// engine, the in-process Quire store, when `name` is nil.
    ///
    /// - Throws: a registry error naming the engines there are when there is no engine `name`.
    public init(engineNamed name: String? = nil, options: RunnerOptions = RunnerOptions()) throws {
        self.init(engine: try EngineRegistry.makeEngine(named: name), options: options)
    }

    /// Makes a runner whose engine accepts every step and answers none: the runner's own work
    /// (variable substitution, step decoding, expectation matching) without a store. Fuzzing
    /// the spec parser runs what it accepts this way.
    public init(dryRunWith options: RunnerOptions) {
        self.init(engine: DryRunEngine(), options: options)
    }

    /// Runs a suite's selected cases (in parallel when `jobs > 1`) and reports them in order.
    public func run(_ suite: ConformanceSuite, selection: CaseSelection = CaseSelection(), seed: UInt64 = 0)
        -> RunReport
    {
        let start = Date()
        let results = run(selection.apply(to: suite.cases))
        return RunReport(engine: engine.name, seed: seed, start: start, stop: Date(), results: results)
    }

    /// Runs cases, `options.jobs` at a time; the results come back in the order of `cases`.
    /// Performance cases that will be measured run afterwards, one at a time, so that no other
    /// case of this run competes with their measurement.
    public func run(_ cases: [ConformanceCase]) -> [CaseResult] {
        guard options.includePerformance, options.jobs > 1, cases.contains(where: \.isPerformance) else {
            return runConcurrently(cases)
        }
        let others = cases.indices.filter { !cases[$0].isPerformance }
        var results = [CaseResult?](repeating: nil, count: cases.count)
        for (index, result) in zip(others, runConcurrently(others.map { cases[$0] })) { results[index] = result }
        for index in cases.indices where cases[index].isPerformance { results[index] = run(cases[index]) }
        return results.compactMap { $0 }
    }

    private func runConcurrently(_ cases: [ConformanceCase]) -> [CaseResult] {
        let jobs = max(1, min(options.jobs, cases.count))
        guard jobs > 1 else { return cases.map(run) }
        let next = Locked(0)
        let results = Locked([CaseResult?](repeating: nil, count: cases.count))
        let group = DispatchGroup()
        for _ in 0..<jobs {
            group.enter()
            let worker = Thread {
                while true {
                    let index = next.withLock { value in
                        defer { value += 1 }
                        return value
                    }
                    guard index < cases.count else { break }
                    let result = run(cases[index])
                    results.withLock { $0[index] = result }
                }
                group.leave()
            }
            // Engines may recurse deeply (query parsers); secondary threads default to little stack.
            worker.stackSize = 8 << 20
            worker.start()
        }
        group.wait()
        return results.withLock { $0.compactMap { $0 } }
    }

    /// Runs one case in a fresh directory and returns how it went. Never throws: every
    /// problem becomes a failed or error result.
    package func run(_ testCase: ConformanceCase) -> CaseResult {
        let clock = ContinuousClock()
        let start = clock.now
        var result = runUntimed(testCase)
        result.duration = CaseExecution.seconds(clock.now - start)
        return result
    }

    private func runUntimed(_ testCase: ConformanceCase) -> CaseResult {
        let scenario: Scenario
        switch testCase.content {
        case .invalid(let errors):
            let message = errors.count == 1 ? errors[0].message : errors.map(\.description).joined(separator: "\n")
            return CaseResult(
                testCase: testCase, status: .error,
                failure: CaseFailure(
                    message: errors.count == 1 ? "spec error: \(message)" : "\(errors.count) spec errors:\n\(message)",
                    location: errors.first?.location ?? testCase.location))
        case .scenario(let found):
            scenario = found
        }
        if let reason = scenario.skipReason {
            return CaseResult(testCase: testCase, status: .skipped, skipReason: reason)
        }
        if let performance = scenario.performance {
            guard options.includePerformance else {
                return CaseResult(testCase: testCase, status: .skipped, skipReason: "performance case; run with --perf")
            }
            if let capabilities = engine.capabilities, !capabilities.contains(.performance) {
                let reason = EngineError.missingCapability(
                    .performance, "its workload is timed against baselines in this process")
                return CaseResult(testCase: testCase, status: .skipped, skipReason: reason.message)
            }
            #if DEBUG
                if !options.measuresUnoptimisedBuilds {
                    return CaseResult(testCase: testCase, status: .skipped, skipReason: Self.debugBuildSkipReason)
                }
            #endif
            return measure(testCase, scenario, performance)
        }
        let directory: URL
        do {
            directory = try makeDirectory(for: testCase)
        } catch {
            return CaseResult(
                testCase: testCase, status: .error,
                failure: CaseFailure(
                    message: "could not make the case directory: \(error.localizedDescription)",
                    location: testCase.location))
        }
        defer {
            if !options.keepDirectories { try? FileManager.default.removeItem(at: directory) }
        }
        let session: any EngineSession
        do {
            session = try engine.makeSession(directory: directory, given: scenario.given, seed: scenario.seed)
        } catch let error as EngineError where error.isMissingCapability {
            return CaseResult(testCase: testCase, status: .skipped, skipReason: error.message)
        } catch {
            return CaseResult(
                testCase: testCase, status: .error,
                failure: CaseFailure(
                    message: "the engine could not start the case", location: testCase.location,
                    actual: "error \(CaseExecution.engineError(error))"))
        }
        let execution = CaseExecution(
            session: session, scenario: scenario, directory: directory, location: testCase.location,
            capabilities: engine.capabilities)
        var result = CaseResult(testCase: testCase, status: .passed)
        do {
            try execution.run()
        } catch let stop as CaseExecution.Stop {
            result.status = stop.status
            result.failure = stop.failure
            if stop.status == .skipped { (result.skipReason, result.failure) = (stop.failure.message, nil) }
        } catch {
            result.status = .error
            result.failure = CaseFailure(message: "the runner broke: \(error)", location: testCase.location)
        }
        do {
            try session.close()
        } catch  where result.status == .passed {
            result.status = .error
            result.failure = CaseFailure(
                message: "closing the session failed", location: testCase.location,
                actual: "error \(CaseExecution.engineError(error))")
        } catch {}
        result.notes = execution.notes
        if options.keepDirectories { result.notes.append("directory kept: \(directory.path)") }
        return result
    }

    /// Why a debug build skips performance cases.
    package static let debugBuildSkipReason =
        "performance cases need an optimised build: this is a debug build, whose Swift is not optimised while the C baselines are; run `swift run -c release quire conform --perf`"

    // MARK: Performance

    /// A suite case's measurement and the engine calls it recorded.
    private typealias SuiteRun = (measurement: SuiteMeasurement, recorded: [SuiteMeasurement.RecordedCase])

    /// Measures a performance case: at each size, `warmup` uncounted rounds then `rounds`
    /// counted ones, each in a fresh directory and session (setup, steps, untimed preparation,
    /// then workload and baseline timed back to back, their order alternating). The verdict is
    /// the median of the rounds' ratios, never an absolute time. A case over a limit is
    /// measured once more and fails only if that measurement is over a limit too: a
    /// neighbour's load that lasts through one measurement does not fail it, a slow path does.
    private func measure(_ testCase: ConformanceCase, _ scenario: Scenario, _ performance: PerformanceTemplate)
        -> CaseResult
    {
        var suiteRun: SuiteRun?
        if let suite = performance.suite {
            let measurement = SuiteMeasurement(
                engine: engine, paths: [scenario.specDirectory.appendingPathComponent(suite).path], seed: scenario.seed,
                workDirectory: options.workDirectory)
            do {
                suiteRun = (measurement, try measurement.record())
            } catch {
                return Self.suiteFailure(error, testCase: testCase, performance: performance)
            }
        }
        var notes: [String] = []
        let measurement: PerformanceMeasurement
        do throws(RoundFailure) {
            let first = try measureOnce(testCase, scenario, performance, suiteRun: suiteRun).get()
            if first.withinLimits {
                measurement = first
            } else {
                notes.append("over its limit at first (\(first.summary)); measured again")
                measurement = try measureOnce(testCase, scenario, performance, suiteRun: suiteRun).get()
            }
        } catch {
            return error.result
        }
        let again = notes.isEmpty ? "" : " (measured twice)"
        notes.append(measurement.summary)
        #if DEBUG
            notes.append("this is a debug build: measure with `swift run -c release quire conform --perf`")
        #endif
        var result = CaseResult(testCase: testCase, status: .passed, notes: notes)
        result.performance = measurement
        if measurement.ratio > measurement.maxRatio {
            result.status = .failed
            result.failure = CaseFailure(
                message: "the workload is too slow against its baseline\(again)", location: performance.location,
                expected: String(format: "ratio <= %.2f", measurement.maxRatio), actual: measurement.summary)
        } else if let growth = measurement.growth, let maxGrowth = measurement.maxGrowth, growth > maxGrowth {
            result.status = .failed
            result.failure = CaseFailure(
                message: (performance.threads.count == 2
                    ? "the workload takes longer on \(performance.threads[1]) threads than allowed against \(performance.threads[0])"
                    : "the workload's cost grows faster than its size") + again,
                location: performance.location,
                expected: String(format: "growth <= %.2f", maxGrowth), actual: measurement.summary)
        }
        return result
    }

    /// One measurement of a performance case: every size's warm-up and counted rounds, and
    /// the medians; a round that cannot run comes back as the case's result.
    private func measureOnce(
        _ testCase: ConformanceCase, _ scenario: Scenario, _ performance: PerformanceTemplate,
        suiteRun: SuiteRun?
    ) -> Result<PerformanceMeasurement, RoundFailure> {
        var sizes: [PerformanceMeasurement.Size] = []
        // Two sizes on the same threads, or one size on two thread counts.
        let points =
            performance.threads.count == 2
            ? performance.threads.map { (iterations: performance.sizes[0], threads: $0) }
            : performance.sizes.map { (iterations: $0, threads: performance.threads[0]) }
        for (iterations, threads) in points {
            var counted: [CaseExecution.RoundTimes] = []
            for round in 0..<(performance.warmup + performance.rounds) {
                let times =
                    if let suiteRun {
                        Self.runSuiteRound(
                            suiteRun.measurement, suiteRun.recorded, iterations: iterations,
                            baselineFirst: round % 2 == 1
                        ).mapError { RoundFailure(Self.suiteFailure($0, testCase: testCase, performance: performance)) }
                    } else {
                        runRound(
                            testCase, scenario, performance, iterations: iterations, threads: threads,
                            baselineFirst: round % 2 == 1)
                    }
                switch times {
                case .success(let times):
                    if round >= performance.warmup { counted.append(times) }
                case .failure(let failure):
                    return .failure(failure)
                }
            }
            sizes.append(
                PerformanceMeasurement.Size(
                    iterations: iterations, threads: threads, workload: Self.median(counted.map(\.workload)),
                    baseline: Self.median(counted.map(\.baseline)),
                    ratio: Self.median(counted.map { $0.workload / $0.baseline })))
        }
        var growth: Double?
        if sizes.count == 2 {
            let perIteration = sizes.map { $0.workload / Double($0.iterations) }
            growth = perIteration[1] / max(perIteration[0], 1e-12)
        }
        return .success(
            PerformanceMeasurement(
                baselineName: performance.baseline, sizes: sizes, maxRatio: performance.maxRatio,
                rounds: performance.rounds,
                warmup: performance.warmup, growth: growth, maxGrowth: performance.maxGrowth,
                suiteCases: suiteRun?.recorded.count))
    }

    /// One round in its own directory and session; a failure comes back as the case's result.
    private func runRound(
        _ testCase: ConformanceCase, _ scenario: Scenario, _ performance: PerformanceTemplate, iterations: Int,
        threads: Int,
        baselineFirst: Bool
    ) -> Result<CaseExecution.RoundTimes, RoundFailure> {
        let directory: URL
        do {
            directory = try makeDirectory(for: testCase)
        } catch {
            return .failure(
                RoundFailure(
                    CaseResult(
                        testCase: testCase, status: .error,
                        failure: CaseFailure(
                            message: "could not make the case directory: \(error.localizedDescription)",
                            location: testCase.location))))
        }
        defer {
            if !options.keepDirectories { try? FileManager.default.removeItem(at: directory) }
        }
        let session: any EngineSession
        do {
            session = try engine.makeSession(directory: directory, given: scenario.given, seed: scenario.seed)
        } catch {
            return .failure(
                RoundFailure(
                    CaseResult(
                        testCase: testCase, status: .error,
                        failure: CaseFailure(
                            message: "the engine could not start the case", location: testCase.location,
                            actual: "error \(CaseExecution.engineError(error))"))))
        }
        defer { try? session.close() }
        let execution = CaseExecution(
            session: session, scenario: scenario, directory: directory, location: testCase.location)
        do {
            try execution.run()
            return .success(
                try execution.measure(
                    performance, iterations: iterations, threads: threads, baselineFirst: baselineFirst))
        } catch let stop as CaseExecution.Stop {
            return .failure(RoundFailure(CaseResult(testCase: testCase, status: stop.status, failure: stop.failure)))
        } catch {
            return .failure(
                RoundFailure(
                    CaseResult(
                        testCase: testCase, status: .error,
                        failure: CaseFailure(
                            message: "the runner broke: \(error)", location: testCase.location))))
        }
    }

    /// One round of a suite case: the suite through the runner and the recorded engine calls
    /// replayed, each `iterations` times, back to back in the order asked.
    private static func runSuiteRound(
        _ measurement: SuiteMeasurement, _ recorded: [SuiteMeasurement.RecordedCase], iterations: Int,
        baselineFirst: Bool
    ) -> Result<CaseExecution.RoundTimes, any Error> {
        let clock = ContinuousClock()
        func time(_ body: () throws -> Void) throws -> Double {
            let start = clock.now
            try body()
            return max(CaseExecution.seconds(clock.now - start), 1e-9)
        }
        return Result {
            let runSuite = { try time { for _ in 0..<iterations { try measurement.runSuite() } } }
            let replay = { try time { for _ in 0..<iterations { try measurement.replay(recorded) } } }
            if baselineFirst {
                let baseline = try replay()
                return CaseExecution.RoundTimes(workload: try runSuite(), baseline: baseline)
            }
            let workload = try runSuite()
            return CaseExecution.RoundTimes(workload: workload, baseline: try replay())
        }
    }

    /// The result of a suite case that could not be measured.
    private static func suiteFailure(_ error: any Error, testCase: ConformanceCase, performance: PerformanceTemplate)
        -> CaseResult
    {
        if let failure = error as? SuiteMeasurement.Failure {
            return CaseResult(
                testCase: testCase, status: .failed,
                failure: CaseFailure(message: failure.message, location: performance.location, actual: failure.actual))
        }
        return CaseResult(
            testCase: testCase, status: .error,
            failure: CaseFailure(
                message: "the suite could not be measured", location: performance.location,
                actual: "error \(CaseExecution.engineError(error))"))
    }

    /// A round's failure, carrying the case's result.
    private struct RoundFailure: Error {
        var result: CaseResult
        init(_ result: CaseResult) { self.result = result }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private func makeDirectory(for testCase: ConformanceCase) throws -> URL {
        let root = options.workDirectory ?? FileManager.default.temporaryDirectory
        let slug = String(
            testCase.name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "-" }.prefix(
                40))
        let directory = root.appendingPathComponent(
            "quire-conform-\(slug)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
