import Foundation

/// What `quire conform` does once its arguments are parsed: load, select, run, report.
public enum ConformanceDriver {
    /// Exit status when every selected case passed (or was skipped).
    package static let exitSuccess: Int32 = 0
    /// Exit status when an expectation failed.
    package static let exitFailures: Int32 = 1
    /// Exit status when a spec file, the harness or the setup (engine, report path) broke.
    package static let exitErrors: Int32 = 2

    /// Runs the command.
    ///
    /// - Parameters:
    ///   - options: what to run and where to report, as `quire conform`'s options say.
    ///   - output: receives standard output text.
    ///   - errorOutput: receives standard error text.
    /// - Returns: the exit status: 0 all passed, 1 failures, 2 spec or harness errors.
    public static func run(
        _ options: ConformanceOptions, output: (String) -> Void, errorOutput: (String) -> Void
    ) -> Int32 {
        run(options, engine: nil, output: output, errorOutput: errorOutput)
    }

    /// ``run(_:output:errorOutput:)`` with an engine of the caller's instead of the one
    /// `options.engine` names (nil: that one).
    package static func run(
        _ options: ConformanceOptions, engine: (any ConformanceEngine)?,
        output: (String) -> Void, errorOutput: (String) -> Void
    ) -> Int32 {
        let suite = ConformanceSuite.load(paths: options.paths, seed: options.seed)
        let selected = options.selection.apply(to: suite.cases)
        if options.listOnly {
            for testCase in selected {
                let marker = testCase.specErrors.isEmpty ? "" : "  (spec error: \(testCase.specErrors[0]))"
                output("\(testCase.id)\(marker)\n")
            }
            output("\(selected.count) \(selected.count == 1 ? "case" : "cases")\n")
            return selected.contains { !$0.specErrors.isEmpty } ? exitErrors : exitSuccess
        }
        let chosen: any ConformanceEngine
        do {
            chosen = try engine ?? EngineRegistry.makeEngine(named: options.engine)
        } catch {
            errorOutput("quire conform: \(error)\n")
            return exitErrors
        }
        if selected.isEmpty {
            errorOutput("quire conform: no case selected under \(options.paths.joined(separator: ", "))\n")
        }
        var runnerOptions = RunnerOptions(
            jobs: options.jobs, includePerformance: options.includePerformance, keepDirectories: options.keepDirectories
        )
        runnerOptions.measuresUnoptimisedBuilds = options.measuresUnoptimisedBuilds
        let runner = ConformanceRunner(engine: chosen, options: runnerOptions)
        let start = Date()
        let results = runner.run(selected)
        var report = RunReport(engine: chosen.name, seed: options.seed, start: start, stop: Date(), results: results)
        report.properties = chosen.reportProperties
        var status = report.exitCode
        let files: [(String?, any ConformanceReporter)] = [
            (options.junitPath, JUnitReporter()), (options.tapPath, TAPReporter()), (options.jsonPath, CTRFReporter()),
        ]
        for case (let path?, let reporter) in files {
            do {
                try reporter.render(report).write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                errorOutput("quire conform: cannot write \(path): \(error.localizedDescription)\n")
                status = exitErrors
            }
        }
        if options.tapToStandardOutput {
            output(TAPReporter().render(report))
            errorOutput(report.summaryLine + "\n")
        } else {
            output(TextReporter(verbose: options.verbose).render(report))
        }
        return status
    }
}
