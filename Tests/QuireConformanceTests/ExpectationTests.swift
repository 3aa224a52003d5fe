import Foundation
import Testing

@testable import QuireConformance

/// The expectations on a step's resulting document and the held document objects, each
/// shown to fail when it should (`Resources/failing-language`, on the Quire engine).
@Suite struct ExpectationTests {
    private static let report: RunReport = {
        let suite = ConformanceSuite.load(paths: [TestResources.path("failing-language")])
        return ConformanceRunner(engine: QuireEngine(), options: RunnerOptions(jobs: 2)).run(
            suite, selection: CaseSelection())
    }()

    private func result(_ name: String) throws -> CaseResult {
        try #require(Self.report.results.first { $0.testCase.name == name }, "no case '\(name)'")
    }

    @Test func everyDeliberateCaseFailsOrIsAnError() {
        #expect(Self.report.results.count == 11)
        #expect(
            Self.report.results.allSatisfy { $0.status == .failed || $0.status == .error },
            "\(TextReporter().render(Self.report))")
    }

    @Test func documentExpectationsFailWithWhatWasFound() throws {
        let notEqual = try #require(try result("notEqual on an equal value").failure)
        #expect(notEqual.message == "save returned the value it should differ from")
        #expect(notEqual.expected == #"a value other than {"v":1}"#)

        let contains = try #require(try result("contains a missing key").failure)
        #expect(contains.message == "save returned a document without key 'w'")

        let lacks = try #require(try result("lacks a present key").failure)
        #expect(lacks.message == "save returned a document with key 'a.b'")
        #expect(lacks.actual == "1")

        let keys = try #require(try result("keyCount counts without _meta").failure)
        #expect(keys.expected == "2 keys (_meta not counted)")
        #expect(keys.actual == "1: v")

        let typed = try #require(try result("typed tells 1 from 1.0").failure)
        #expect(typed.message.hasPrefix("save returned another value (at v: expected 1"))
        #expect(typed.message.hasSuffix("(number), found 1 (integer))"))

        let tombstone = try #require(try result("a tombstone's sequence is checked").failure)
        #expect(tombstone.message.contains("at _meta.sequence: expected 3, found 2"))
    }

    @Test func handleStepsReportTheHandleState() throws {
        let closed = try #require(try result("handles are not open after closeHandles").failure)
        #expect(closed.message == "isOpened returned another value (expected true, found false)")
    }

    @Test func aForeignCollectionSaveFailsInTheStore() throws {
        let result = try result("a save into another collection is expected to pass")
        #expect(result.status == .failed)
        #expect(
            result.failure?.actual?.hasPrefix(
                "error Quire.invalidParameter: document 'd' belongs to collection _default.a") == true)
    }

    @Test func runnerRefusalsAndVacuousSpecsAreErrors() throws {
        let refused = try result("the runner refuses an unknown object")
        #expect(refused.status == .error)
        #expect(refused.failure?.message == "the runner refused delete (not an error of the store)")
        #expect(refused.failure?.actual?.hasPrefix("error Runner.noSuchObject:") == true)

        let outside = try result("unexpectedPropertyAt outside the body")
        #expect(outside.status == .error)
        #expect(
            outside.failure?.message.hasPrefix("spec error: expect: 'unexpectedPropertyAt' \"_meta.id\" can never be")
                == true)

        let neverRuns = try result("an expectation on a step that never runs")
        #expect(neverRuns.status == .error)
        #expect(neverRuns.failure?.message.hasPrefix("spec error: this step has an expectation but never runs") == true)
    }
}
