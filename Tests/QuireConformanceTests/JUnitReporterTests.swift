import Foundation
import Testing

@testable import QuireConformance

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct JUnitReporterTests {
    private let report = SampleReport.make()

    @Test func xmlParsesAndCountsMatch() throws {
        let document = try XMLDocument(xmlString: JUnitReporter().render(report), options: [])
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        func count(_ element: XMLElement, _ attribute: String) -> Int? {
            element.attribute(forName: attribute)?.stringValue.flatMap { Int($0) }
        }
        #expect(count(root, "tests") == report.results.count)
        #expect(count(root, "failures") == report.count(.failed))
        #expect(count(root, "errors") == report.count(.error))
        #expect(count(root, "skipped") == report.count(.skipped))

        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == report.files.map(\.path))
        var testcases = 0
        for (suite, file) in zip(suites, report.files) {
            let cases = suite.elements(forName: "testcase")
            testcases += cases.count
            #expect(count(suite, "tests") == cases.count)
            #expect(count(suite, "failures") == cases.filter { !$0.elements(forName: "failure").isEmpty }.count)
            #expect(count(suite, "errors") == cases.filter { !$0.elements(forName: "error").isEmpty }.count)
            #expect(count(suite, "skipped") == cases.filter { !$0.elements(forName: "skipped").isEmpty }.count)
            // Characters XML 1.0 cannot hold are written visibly.
            let expected = file.results.map { $0.testCase.name.replacingOccurrences(of: "\u{1}", with: "\\u{1}") }
            #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == expected)
            #expect(
                cases.allSatisfy { $0.attribute(forName: "classname") != nil && $0.attribute(forName: "time") != nil })
        }
        #expect(testcases == report.results.count)
    }

    @Test(arguments: [
        ("Specs/naming/collections.yaml", "Specs.naming.collections"),
        ("/tmp/run/Specs/documents/save.yaml", "tmp.run.Specs.documents.save"),
        ("./Specs/a.yml", "Specs.a"),
        ("/work/../Specs/b.yaml", "work.Specs.b"),
    ])
    func classNamesHaveNoLeadingOrEmptySegments(path: String, expected: String) {
        #expect(JUnitReporter().className(path) == expected)
    }

    @Test func failuresCarryLocationStepExpectedAndActual() throws {
        let document = try XMLDocument(xmlString: JUnitReporter().render(report), options: [])
        let failures = try document.nodes(forXPath: "//testcase[@name='expects another value']/failure")
        let failure = try #require(failures.first as? XMLElement)
        let message = try #require(failure.attribute(forName: "message")?.stringValue)
        #expect(
            message.hasSuffix("deliberate-failure.yaml:16:9: get returned another value (at v: expected 2, found 1)"))
        #expect(failure.stringValue?.contains("expected: {\"v\":2}") == true)
        let errors = try document.nodes(forXPath: "//testcase[@name='(spec file)']/error")
        #expect(
            (errors.first as? XMLElement)?.attribute(forName: "message")?.stringValue?.contains(
                "did you mean 'createCollection'?") == true)
    }

    @Test func awkwardCharactersAreEscaped() throws {
        let document = try XMLDocument(xmlString: JUnitReporter().render(report), options: [])
        let names = try document.nodes(forXPath: "//testcase/@name").compactMap(\.stringValue)
        #expect(names.contains("escapes <&> \"quotes\" 'apostrophes' # hash \\u{1} control"))
    }
}
