import Foundation
import QuireConformance

/// Paths to the spec fixtures under `Resources/` and to the package's own files.
enum TestResources {
    static var root: URL {
        guard let url = Bundle.module.url(forResource: "Resources", withExtension: nil) else {
            fatalError("the Resources folder is missing from the test bundle")
        }
        return url
    }

    static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// The package's top-level directory (for `Specs/`).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs the driver with the memory engine and captures its output.
    static func drive(_ options: ConformanceOptions) -> (status: Int32, output: String, errors: String) {
        var output = ""
        var errors = ""
        let status = ConformanceDriver.run(
            options, engine: MemoryEngine(), output: { output += $0 }, errorOutput: { errors += $0 })
        return (status, output, errors)
    }

    /// Runs spec paths with the memory engine.
    static func run(_ paths: [String], selection: CaseSelection = CaseSelection(), jobs: Int = 2) -> RunReport {
        let suite = ConformanceSuite.load(paths: paths)
        return ConformanceRunner(engine: MemoryEngine(), options: RunnerOptions(jobs: jobs)).run(
            suite, selection: selection)
    }
}
