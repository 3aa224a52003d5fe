import Foundation
import QuireConformance
import Testing

/// `quire conform --reference-from`: `Specs/REFERENCE.md` from a run's JUnit report.
@Suite struct ReferencePageTests {
    static let specsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Specs")

    static let spec = """
        about: Three cases.
        cases:
          - name: kept | agrees
            steps: [{count: , expect: {count: 0}}]
          - name: kept and differs
            steps: [{count: , expect: {count: 0}}]
          - name: kept and skipped
            steps: [{count: , expect: {count: 0}}]
        """

    static let report = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="quire conform" tests="4" failures="1" errors="0" skipped="1" time="1.0" timestamp="2026-11-28T10:00:00.000Z">
          <testsuite name="x.yaml" tests="4" file="x.yaml">
            <properties>
              <property name="engine" value="testkit-plain"/>
              <property name="server" value="couchbase-lite-c"/>
              <property name="server.version" value="3.2.4"/>
              <property name="server.platform" value="Linux 6.1 x86_64"/>
            </properties>
            <testcase classname="x" name="kept | agrees" file="x.yaml" line="3"/>
            <testcase classname="x" name="kept and differs" file="x.yaml" line="5">
              <failure message="x.yaml:6:9: count failed" type="expectation">x.yaml:6:9: count failed
        expected: count 0
        actual:   count 2</failure>
            </testcase>
            <testcase classname="x" name="kept and skipped" file="x.yaml" line="7">
              <skipped message="needs capability &apos;transactions&apos;: no batch"/>
            </testcase>
            <testcase classname="x" name="no longer in the specs" file="x.yaml" line="9"/>
          </testsuite>
        </testsuites>
        """

    @Test func eachCaseAgreesDiffersOrIsNotCarriedAndOnlyCasesThatExistAreNamed() throws {
        let cases = ConformanceSuite.parse(Self.spec, path: "x.yaml").cases
        let page = try ReferencePage(junit: Data(Self.report.utf8), cases: cases)
        #expect(page.entries.map(\.outcome) == ["agrees", "differs", "not carried"])
        #expect(page.dropped == 1)
        #expect(page.entries[1].detail.contains("expected: count 0; actual:   count 2"))
        let markdown = page.markdown
        #expect(markdown.contains("`couchbase-lite-c` 3.2.4"))
        #expect(markdown.contains("Linux 6.1 x86_64"))
        #expect(markdown.contains("2026-11-28T10:00:00.000Z"))
        #expect(markdown.contains("| transactions | 1 |"))
        #expect(!markdown.contains("no longer in the specs |"))
        let named = ReferencePage.namedCases(in: markdown).map(\.name)
        #expect(named == ["kept | agrees", "kept and differs", "kept and skipped"])
    }

    /// A differing case whose spec says why (`reference:`) is a known difference, its reason first.
    @Test func aDifferenceTheSpecExplainsIsKnown() throws {
        let spec = Self.spec.replacingOccurrences(
            of: "  - name: kept and differs\n",
            with: "  - name: kept and differs\n    reference: Version 3.2 counts two.\n")
        let cases = ConformanceSuite.parse(spec, path: "x.yaml").cases
        #expect(cases.allSatisfy { $0.specErrors.isEmpty })
        let page = try ReferencePage(junit: Data(Self.report.utf8), cases: cases)
        #expect(page.entries.map(\.outcome) == ["agrees", ReferencePage.knownDifference, "not carried"])
        #expect(page.entries[1].detail.hasPrefix("Version 3.2 counts two. Found: "))
        #expect(
            page.markdown.contains(
                "3 cases: 2 carried (66.7%), 1 agree, 1 differ (1 known, explained by their spec, 0 unexplained)"))
    }

    @Test func aFileThatIsNoJUnitReportIsRefused() {
        #expect(throws: ReferencePageError.self) { try ReferencePage(junit: Data("{}".utf8), cases: []) }
    }

    /// The checked-in page names only cases that exist in Specs/.
    @Test func theCheckedInPageNamesOnlyCasesOfTheSpecs() throws {
        let text = try String(
            contentsOf: Self.specsDirectory.appendingPathComponent(ReferencePage.pageFile), encoding: .utf8)
        let suite = ConformanceSuite.load(paths: [Self.specsDirectory.path])
        let prefix = Self.specsDirectory.deletingLastPathComponent().path + "/"
        var known: Set<String> = []
        for testCase in suite.cases {
            let file = testCase.file.hasPrefix(prefix) ? String(testCase.file.dropFirst(prefix.count)) : testCase.file
            known.insert(file + " :: " + testCase.name)
        }
        let named = ReferencePage.namedCases(in: text)
        #expect(named.count > 100)
        let unknown = named.map { $0.file + " :: " + $0.name }.filter { !known.contains($0) }
        #expect(unknown.isEmpty, "Specs/REFERENCE.md names cases that are not in Specs/: \(unknown.prefix(5))")
    }
}
