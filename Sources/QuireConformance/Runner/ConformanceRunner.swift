import Foundation

/// Runs cases against an engine, each isolated in its own directory.
public struct ConformanceRunner: Sendable {
    /// The engine under test.
    public let engine: any ConformanceEngine
    /// How to run.
    public var options: RunnerOptions

    /// Makes a runner.
    public init(engine: any ConformanceEngine, options: RunnerOptions = RunnerOptions()) {
        self.engine = engine
        self.options = options
    }

    /// Runs a suite's selected cases (in parallel when `jobs > 1`) and reports them in order.
    public func run(_ suite: ConformanceSuite, selection: CaseSelection = CaseSelection(), seed: UInt64 = 0) -> RunReport {
        let start = Date()
        let results = run(selection.apply(to: suite.cases))
        return RunReport(engine: engine.name, seed: seed, start: start, stop: Date(), results: results)
    }

    /// Runs cases, `options.jobs` at a time; the results come back in the order of `cases`.
    public func run(_ cases: [ConformanceCase]) -> [CaseResult] {
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
    public func run(_ testCase: ConformanceCase) -> CaseResult {
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
            return CaseResult(testCase: testCase, status: .error, failure: CaseFailure(
                message: errors.count == 1 ? "spec error: \(message)" : "\(errors.count) spec errors:\n\(message)",
                location: errors.first?.location ?? testCase.location))
        case .scenario(let found):
            scenario = found
        }
        if let reason = scenario.skipReason {
            return CaseResult(testCase: testCase, status: .skipped, skipReason: reason)
        }
        if scenario.performance != nil && !options.includePerformance {
            return CaseResult(testCase: testCase, status: .skipped, skipReason: "performance case; run with --perf")
        }
        let directory: URL
        do {
            directory = try makeDirectory(for: testCase)
        } catch {
            return CaseResult(testCase: testCase, status: .error, failure: CaseFailure(
                message: "could not make the case directory: \(error.localizedDescription)", location: testCase.location))
        }
        defer {
            if !options.keepDirectories { try? FileManager.default.removeItem(at: directory) }
        }
        let session: any EngineSession
        do {
            session = try engine.makeSession(directory: directory, given: scenario.given, seed: scenario.seed)
        } catch {
            return CaseResult(testCase: testCase, status: .error, failure: CaseFailure(
                message: "the engine could not start the case", location: testCase.location,
                actual: "error \(CaseExecution.engineError(error))"))
        }
        let execution = CaseExecution(session: session, scenario: scenario, directory: directory, location: testCase.location)
        var result = CaseResult(testCase: testCase, status: .passed)
        do {
            try execution.run()
        } catch let stop as CaseExecution.Stop {
            result.status = stop.status
            result.failure = stop.failure
        } catch {
            result.status = .error
            result.failure = CaseFailure(message: "the runner broke: \(error)", location: testCase.location)
        }
        do {
            try session.close()
        } catch where result.status == .passed {
            result.status = .error
            result.failure = CaseFailure(message: "closing the session failed", location: testCase.location,
                                         actual: "error \(CaseExecution.engineError(error))")
        } catch {}
        result.notes = execution.notes
        if options.keepDirectories { result.notes.append("directory kept: \(directory.path)") }
        return result
    }

    private func makeDirectory(for testCase: ConformanceCase) throws -> URL {
        let root = options.workDirectory ?? FileManager.default.temporaryDirectory
        let slug = String(testCase.name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "-" }.prefix(40))
        let directory = root.appendingPathComponent("quire-conform-\(slug)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
