import ArgumentParser
import Foundation
import QuireConformance

/// `quire conform`: runs spec files against an engine and reports in CI formats.
struct ConformCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conform",
        abstract: "Run conformance spec files against a document-store engine.",
        discussion: """
            Spec files are YAML (see Specs/README.md; their JSON Schema is printed by \
            --print-schema). Every case runs in its own temporary directory.

            Exit status: 0 when every selected case passed, 1 when an expectation failed, \
            2 when a spec file, the engine or the harness broke.

            Example:
              quire conform Specs --filter blobs --junit report.xml
            """
    )

    @Argument(help: "Spec files, or directories searched for .yaml files.")
    var paths: [String] = ["Specs"]

    @Option(
        help: ArgumentHelp(
            "The engine to run against: quire (the default), testkit:http://HOST:PORT (a Couchbase Lite test server, with Quire's protocol extension) or testkit-plain:http://HOST:PORT (the extension off).",
            valueName: "engine"))
    var engine: String?

    @Option(help: "How many cases run at once.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(
        name: .customLong("filter"),
        help: ArgumentHelp(
            "Run only matching cases: tag:NAME, /REGEX/ or a case name (repeatable; any match counts).",
            valueName: "filter"))
    var filters: [String] = []

    @Option(
        name: .customLong("filter-regex"),
        help: ArgumentHelp(
            "Run only cases whose 'path :: name' matches (repeatable).", valueName: "regex"))
    var filterRegexes: [String] = []

    @Option(help: ArgumentHelp("Run part I of N of the selected cases, for example 2/4.", valueName: "I/N"))
    var shard: String?

    @Option(help: "Seed for generated data and engines.")
    var seed: UInt64 = 0

    @Flag(help: "Also run performance cases (in an optimised build: a debug build skips them).")
    var perf = false

    @Flag(help: "Keep each case's directory instead of removing it.")
    var keep = false

    @Option(help: ArgumentHelp("Write a JUnit XML report.", valueName: "path"))
    var junit: String?

    @Flag(help: "Print TAP version 14 on standard output instead of the text report.")
    var tap = false

    @Option(name: .customLong("tap-output"), help: ArgumentHelp("Write a TAP version 14 report.", valueName: "path"))
    var tapOutput: String?

    @Option(help: ArgumentHelp("Write a CTRF JSON summary.", valueName: "path"))
    var json: String?

    @Flag(name: .shortAndLong, help: "List passing and skipped cases too.")
    var verbose = false

    @Flag(help: "List the selected cases without running them.")
    var list = false

    @Flag(help: "Print the JSON Schema of spec files and exit.")
    var printSchema = false

    @Flag(
        help:
            "Write COVERAGE.md in the specs directory (the first path): Couchbase Lite's tests and the cases that cover them, then exit."
    )
    var coverage = false

    @Option(
        name: .customLong("reference-from"),
        help: ArgumentHelp(
            "Write REFERENCE.md in the specs directory (the first path) from the JUnit report of a run against a Couchbase Lite test server: each case agrees, differs or is not carried; then exit.",
            valueName: "junit.xml"))
    var referenceFrom: String?

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, not \(jobs).") }
        _ = try selection()
    }

    func run() throws {
        if printSchema {
            print(SpecSchema.json)
            return
        }
        if coverage {
            try writeCoverage()
            return
        }
        if let referenceFrom {
            try writeReference(from: referenceFrom)
            return
        }
        let options = ConformanceOptions(
            paths: paths, engine: engine, jobs: jobs, selection: try selection(), seed: seed, includePerformance: perf,
            keepDirectories: keep,
            junitPath: junit, tapToStandardOutput: tap, tapPath: tapOutput, jsonPath: json, verbose: verbose,
            listOnly: list)
        let status = ConformanceDriver.run(
            options,
            output: { FileHandle.standardOutput.write(Data($0.utf8)) },
            errorOutput: { FileHandle.standardError.write(Data($0.utf8)) })
        if status != 0 { throw ExitCode(status) }
    }

    private func writeCoverage() throws {
        let directory = URL(fileURLWithPath: paths.first ?? "Specs")
        do {
            let map = try CoverageMap.load(specsDirectory: directory)
            let page = directory.appendingPathComponent(CoverageMap.pageFile)
            try Data(map.markdown.utf8).write(to: page, options: .atomic)
            let total = map.total
            print(
                "\(page.path): \(total.covered) of \(total.applicable) applicable tests covered (\(CoverageMap.percent(total.percentage))), \(total.notApplicable) not applicable"
            )
        } catch let error as CoverageError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    private func writeReference(from report: String) throws {
        let directory = paths.first ?? "Specs"
        do {
            let suite = ConformanceSuite.load(paths: [directory], seed: seed)
            let data = try Data(contentsOf: URL(fileURLWithPath: report))
            let reference = try ReferencePage(junit: data, cases: suite.cases)
            let page = URL(fileURLWithPath: directory).appendingPathComponent(ReferencePage.pageFile)
            try Data(reference.markdown.utf8).write(to: page, options: .atomic)
            let known = reference.count(ReferencePage.knownDifference)
            let carried = reference.count("agrees") + reference.count("differs") + known
            print(
                "\(page.path): \(reference.entries.count) cases, \(carried) carried (\(reference.count("agrees")) agree, \(known) known differences, \(reference.count("differs")) unexplained), \(reference.count("not carried")) not carried"
            )
        } catch {
            FileHandle.standardError.write(
                Data("error: cannot write the reference page from \(report): \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    private func selection() throws -> CaseSelection {
        do {
            let parsed = try filters.map(CaseFilter.init(parsing:)) + filterRegexes.map(CaseFilter.validatedRegex)
            return CaseSelection(filters: parsed, shard: try shard.map(Shard.init(parsing:)))
        } catch let error as SelectionError {
            throw ValidationError(error.description.prefix(1).uppercased() + error.description.dropFirst() + ".")
        }
    }
}
