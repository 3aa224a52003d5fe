import Foundation
import QuireTestSupport
import Testing

@testable import QuireConformance

/// Spec files that describe far more than they spell out. Each of these crashed or exhausted
/// memory in the spec parser's fuzz target (Tests/Fuzz, fuzz-spec) before the limits in
/// ``SpecLimits``; now each is a spec error with a location.
@Suite(.offCooperativePool) struct SpecLimitsTests {
    private func parse(_ text: String) -> SpecFile {
        ConformanceSuite.parse(text, path: "limits.yaml")
    }

    /// The one case's spec error, for a file whose only case has `vectors`.
    private func vectorError(_ vectors: String) -> String? {
        let file = parse(
            """
            about: x
            cases:
              - name: c
                vectors: \(vectors)
                steps: [{scopes: }]
            """)
        #expect(file.errors.isEmpty)
        #expect(file.cases.count == 1)
        return file.cases.first?.specErrors.first?.message
    }

    @Test func aRepeatCountThatOverflowsIsAnError() {
        // Was a trap in String(repeating:count:).
        #expect(
            vectorError(#"{name: [{repeat: "xy", count: 9223372036854775807}]}"#)
                == "repeat makes too many characters; the most is 1000000")
        #expect(
            vectorError(#"{name: [{repeat: "x", count: 1000001}]}"#)
                == "repeat makes 1000001 characters; the most is 1000000")
        #expect(vectorError(#"{name: [{repeat: "x", count: 1000000}]}"#) == nil)
    }

    @Test func aHugeRandomLengthIsAnError() {
        // Was an allocation of 100 GB.
        #expect(
            vectorError("{name: [{random: alnum, length: 100000000000}]}")
                == "random length 100000000000 is out of range; the most is 1000000")
    }

    @Test func vectorCombinationsAreBounded() {
        // Was 10^15 rows, out of memory.
        #expect(
            vectorError("{a: [{range: [1, 99999]}], b: [{range: [1, 99999]}], c: [{range: [1, 99999]}]}")
                == "the vectors make more than 100000 combinations; use fewer values or the table form")
    }

    @Test func aCharacterSetIsBounded() throws {
        #expect(
            vectorError(#"{ch: [{characters: "\u0001-\U0010FFFF"}]}"#)
                == "the character set names more than 100000 characters")
        // Many narrow ranges count too, repeats included, so the time spent is bounded as well.
        let ranges = String(repeating: "a-z", count: 4000)
        #expect(throws: CharacterSetError.self) { try VectorGenerator.expand(ranges) }
        #expect(try VectorGenerator.expand(String(repeating: "a-z", count: 100)).count == 26)
    }

    @Test func aFileIsBoundedInCases() {
        let file = parse(
            """
            about: x
            cases:
              - name: first
                vectors: {n: [{range: [1, 60000]}]}
                steps: [{scopes: }]
              - name: second
                vectors: {n: [{range: [1, 60000]}]}
                steps: [{scopes: }]
            """)
        #expect(file.cases.count == 60_001)
        let last = file.cases.last
        #expect(last?.name == "second")
        #expect(last?.specErrors.first?.message == "the file expands to more than 100000 cases; split it")
        #expect(last?.specErrors.first?.location.line == 6)
    }

    @Test func aliasesOfAliasesAreBounded() {
        // The "billion laughs": 9^9 values from eleven lines. Was out of memory.
        var text = "about: x\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        for (previous, name) in zip(names, names.dropFirst()) {
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
        }
        text += "cases:\n  - name: c\n    steps: [{scopes: }]\n"
        let file = parse(text)
        #expect(
            file.errors.map(\.message) == ["the file holds more than 1000000 YAML values once aliases are expanded"])
        #expect(file.cases.map(\.name) == [SpecFile.invalidFileCaseName])
    }

    @Test func performanceStepsAreBounded() {
        // Was an overflow trap in iterations × workload steps when the case ran with --perf.
        let file = parse(
            """
            about: x
            cases:
              - name: p
                perf:
                  workload: [{scopes: }, {scopes: }]
                  baseline: rawSQLiteInsert
                  iterations: 9223372036854775807
                  maxRatio: 2
            """)
        #expect(
            file.cases.first?.specErrors.first?.message
                == "9223372036854775807 iterations of 2 steps is more than the 10000000 steps a performance case may run"
        )
    }
}
