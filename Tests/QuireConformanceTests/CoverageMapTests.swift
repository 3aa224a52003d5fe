import Foundation
import Testing

@testable import QuireConformance

/// `Specs/COVERAGE.md` is what `quire conform --coverage` writes, and the map refuses names
/// that are no test of Couchbase Lite's list.
@Suite struct CoverageMapTests {
    static let specsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Specs")

    static let list = """
        # couchbase/couchbase-lite-ios commit 0123
        ATest.testOne
        ATest.testTwo
        ATest.testThree
        BTest.testOnly
        """

    static func cases(_ yaml: String) -> [ConformanceCase] {
        ConformanceSuite.parse(yaml, path: "/specs/x.yaml").cases
    }

    @Test func theCheckedInPageIsCurrent() throws {
        let map = try CoverageMap.load(specsDirectory: Self.specsDirectory)
        let page = try String(
            contentsOf: Self.specsDirectory.appendingPathComponent(CoverageMap.pageFile), encoding: .utf8)
        #expect(page == map.markdown, "Specs/COVERAGE.md is stale: run `swift run quire conform --coverage`")
    }

    @Test func percentagesCountApplicableTestsCoveredByRunningCases() throws {
        let cases = Self.cases(
            """
            about: x
            cases:
              - name: one
                covers: [ATest.testOne]
                vectors: {v: [1, 2]}
                steps: [{count: {}}]
              - name: skipped
                covers: [ATest.testTwo]
                skip: not yet
                steps: [{count: {}}]
            """)
        let map = try CoverageMap(
            testList: Self.list, exclusions: "ATest.testThree: Enterprise-only\n", cases: cases,
            specsDirectory: "/specs")
        #expect(map.source == "couchbase/couchbase-lite-ios commit 0123")
        #expect(map.entries[0].cases == ["x.yaml :: one"])
        #expect(map.entries[1].cases.isEmpty && map.entries[1].skippedCases == ["x.yaml :: skipped"])
        let a = try #require(map.classes.first)
        #expect((a.tests, a.notApplicable, a.applicable, a.covered) == (3, 1, 2, 1))
        #expect(a.percentage == 50)
        #expect(map.total.covered == 1 && map.total.applicable == 3)
        #expect(map.markdown.contains("| `testThree` | n/a: Enterprise-only |  |"))
        #expect(map.markdown.contains("| `testTwo` | **not covered** | `x.yaml :: skipped` (skipped) |"))
        #expect(map.markdown.contains("| [ATest](#atest) | 3 | 1 | 2 | 1 | 50.0% |"))
    }

    @Test func unitTestsWithACoversLineCountAsCases() throws {
        // The marker is spliced in, so this file's own lines carry no `covers:` line.
        let marker = "// covers:"
        let source = """
            \(marker) ATest.testOne, BTest.testOnly
            @Test func readsFragments() throws {}

            // a comment that names nothing
            @Test func other() throws {}
            \(marker) ATest.testOne
            /// A doc comment between them.
            @Test(.timeLimit(.minutes(1))) func again() {}
            \(marker) BTest.testOnly
            @Test(
                arguments: [1, 2])
            func spread(value: Int) {}
            @Test func uncovered() {}
            """
        let unitTests = CoverageMap.UnitTest.scan(source: source, file: "Tests/X/FTests.swift")
        #expect(unitTests.map(\.function) == ["readsFragments", "again", "spread"])
        #expect(unitTests[2].line == 10 && unitTests[2].covers == ["BTest.testOnly"])
        #expect(unitTests[0].covers == ["ATest.testOne", "BTest.testOnly"] && unitTests[0].line == 2)
        let map = try CoverageMap(
            testList: Self.list, exclusions: "", cases: [], specsDirectory: "/specs", unitTests: unitTests)
        #expect(map.entries[0].cases == ["Tests/X/FTests.swift :: readsFragments", "Tests/X/FTests.swift :: again"])
        #expect(
            map.entries[3].cases == ["Tests/X/FTests.swift :: readsFragments", "Tests/X/FTests.swift :: spread"])
        #expect(map.total.covered == 2)
        let wrong = CoverageMap.UnitTest(
            file: "Tests/X/FTests.swift", function: "f", line: 9, covers: ["ATest.testNope"])
        #expect(throws: CoverageError.self) {
            try CoverageMap(
                testList: Self.list, exclusions: "", cases: [], specsDirectory: "/specs", unitTests: [wrong])
        }
    }

    @Test func unknownAndContradictoryNamesAreRefused() {
        let cases = Self.cases(
            """
            about: x
            cases:
              - name: one
                covers: [ATest.testOne, ATest.testMissing]
                steps: [{count: {}}]
            """)
        #expect(throws: CoverageError.self) {
            try CoverageMap(testList: Self.list, exclusions: "", cases: cases, specsDirectory: "/specs")
        }
        do {
            _ = try CoverageMap(
                testList: Self.list, exclusions: "ATest.testOne: x\nCTest.testNone: y\n",
                cases: Self.cases(
                    "about: x\ncases:\n  - name: a\n    covers: [ATest.testOne]\n    steps: [{count: {}}]\n"),
                specsDirectory: "/specs")
            Issue.record("expected a CoverageError")
        } catch let error as CoverageError {
            #expect(error.problems.count == 2)
            #expect(error.description.contains("ATest.testOne is covered by x.yaml :: a and excluded"))
            #expect(error.description.contains("CTest.testNone is no test of couchbase-lite-tests.txt"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aCoversKeyMustNameClassDotTest() {
        let cases = Self.cases(
            "about: x\ncases:\n  - name: a\n    covers: [testOne]\n    steps: [{count: {}}]\n")
        #expect(cases.first?.specErrors.isEmpty == false)
    }
}
