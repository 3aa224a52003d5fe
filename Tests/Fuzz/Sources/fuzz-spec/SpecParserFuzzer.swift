import Foundation
import FuzzDriver
import QuireConformance

/// Fuzzes the spec parser (`ConformanceSuite.parse`: YAML, schema, vectors, templates, step
/// arguments) and the runner's handling of what it accepts.
///
/// Any text must give a `SpecFile`: either errors that point into the file, or cases. The
/// first cases are then run by a dry-run runner, whose engine accepts every step: that exercises
/// variable substitution, step decoding and expectation matching without touching a database.
@main
enum SpecParserFuzzer {
    static let path = "fuzz.yaml"
    /// Case directories go to memory when it is available: the runner makes one per case.
    static let workDirectory: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("quire-fuzz-spec-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()
    static let runner = ConformanceRunner(dryRunWith: RunnerOptions(workDirectory: workDirectory))

    static func main() {
        FuzzDriver.run { data, size in
            SpecParserFuzzer.test(FuzzDriver.buffer(data, size))
            return 0
        }
    }

    static func test(_ input: UnsafeRawBufferPointer) {
        let text = String(decoding: input, as: UTF8.self)
        let file = ConformanceSuite.parse(text, path: path, directory: workDirectory, seed: 7)
        guard file.path == path else { FuzzDriver.fail("the file lost its path") }
        for error in file.errors + file.cases.flatMap(\.specErrors) where error.location.file != path {
            FuzzDriver.fail("an error points outside the file: \(error)")
        }
        for result in runner.run(Array(file.cases.prefix(16))) {
            if result.status == .error, result.failure?.message.hasPrefix("the runner broke") == true {
                FuzzDriver.fail("runner broke: \(result.failure?.message ?? "")")
            }
        }
    }
}
