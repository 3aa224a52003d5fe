import Foundation
import Testing

@testable import QuireConformance

@Suite struct SpecLoaderTests {
    private func parse(_ text: String) -> SpecFile {
        ConformanceSuite.parse(text, path: "inline.yaml")
    }

    @Test func readsAboutTagsAndCasesInOrder() {
        let file = parse(
            """
            about: Things.
            tags: [a, b]
            cases:
              - name: first
                tags: [c]
                steps:
                  - scopes:
              - name: second
                steps:
                  - scopes:
            """)
        #expect(file.errors.isEmpty)
        #expect(file.about == "Things.")
        #expect(file.cases.map(\.name) == ["first", "second"])
        #expect(file.cases[0].tags == ["a", "b", "c"])
        #expect(file.cases[0].id == "inline.yaml :: first")
        #expect(file.cases[1].location == SourceLocation(file: "inline.yaml", line: 8, column: 5))
    }

    @Test func misspeltStepNamesTheNearestKeyword() throws {
        let file = ConformanceSuite.load(paths: [TestResources.path("malformed/misspelled-step.yaml")]).files[0]
        let error = try #require(file.errors.first)
        #expect(file.errors.count == 1)
        #expect(error.message == "unknown step 'crateCollection'; did you mean 'createCollection'?")
        #expect(error.location.line == 5)
        #expect(error.location.column == 9)
        #expect(
            error.description.hasSuffix(
                "misspelled-step.yaml:5:9: unknown step 'crateCollection'; did you mean 'createCollection'?"))
        #expect(file.cases.map(\.name) == [SpecFile.invalidFileCaseName])
    }

    @Test func yamlSyntaxErrorsCarryALocation() throws {
        let file = ConformanceSuite.load(paths: [TestResources.path("malformed/syntax-error.yaml")]).files[0]
        let error = try #require(file.errors.first)
        #expect(error.message.hasPrefix("YAML syntax error"))
        #expect(error.location.line == 5)
    }

    @Test func wrongTypesAreAllReportedWithSuggestions() {
        let file = ConformanceSuite.load(paths: [TestResources.path("malformed/wrong-types.yaml")]).files[0]
        let messages = file.errors.map { "\($0.location.line):\($0.location.column) \($0.message)" }
        #expect(
            messages == [
                "2:8 expected a tag (a letter or digit, then letters, digits, '.', '_' or '-'), found \"Bad Tag\"",
                "6:33 expected a number or a ${variable}, found string \"soon\"",
                "7:38 string \"fulltext\" is not one of: value, fullText, array; did you mean 'fullText'?",
                "8:18 unknown expectation 'eror'; did you mean 'error'?",
            ])
    }

    @Test func newStepsDecodeTheirArguments() throws {
        let directory = URL(fileURLWithPath: "/specs")
        #expect(
            try StepDecoder.decode(
                keyword: "getValue", arguments: ["collection": "s.c", "id": "d", "key": "k", "as": "int64"],
                specDirectory: directory)
                == .getValue(
                    Step.TypedRead(
                        document: DocumentReference("d", in: CollectionName("c", scope: "s")), key: "k", type: .int64)))
        #expect(throws: ArgumentError.self) {
            try StepDecoder.decode(
                keyword: "getValue", arguments: ["id": "d", "key": "k", "as": "integer"], specDirectory: directory)
        }
        #expect(
            try StepDecoder.decode(keyword: "explain", arguments: ["sql": "SELECT 1"], specDirectory: directory)
                == .explain(Step.Query(sql: "SELECT 1")))
        #expect(
            try StepDecoder.decode(
                keyword: "addChangeListener", arguments: ["name": "l", "id": "d"], specDirectory: directory)
                == .addChangeListener(Step.ChangeListener(name: "l", documentID: "d")))
        #expect(
            try StepDecoder.decode(keyword: "changes", arguments: ["name": "l"], specDirectory: directory)
                == .changes(listener: "l"))
        #expect(
            try StepDecoder.decode(
                keyword: "generateBlob", arguments: ["size": 10, "seed": 3], specDirectory: directory)
                == .generateBlob(size: 10, seed: 3, contentType: "application/octet-stream"))
        #expect(throws: ArgumentError.self) {
            try StepDecoder.decode(
                keyword: "generateBlob", arguments: ["size": -1, "seed": 3], specDirectory: directory)
        }
        #expect(
            try StepDecoder.decode(keyword: "damageBlob", arguments: ["digest": "sha1-x"], specDirectory: directory)
                == .damageBlob(digest: "sha1-x"))
    }

    @Test func aTypedReadsTypeIsCheckedByTheSchema() {
        let file = parse("about: x\ncases:\n  - name: t\n    steps:\n      - getValue: {id: d, key: k, as: integer}\n")
        #expect(file.errors.first?.message.contains("expected the typed getter to read it with (int, int64") == true)
    }

    @Test func aStepNeedsExactlyOneAction() {
        let none = parse("about: x\ncases:\n  - name: a\n    steps:\n      - expect: {ok: true}\n")
        #expect(none.errors.first?.message.hasPrefix("a step needs one of: createCollection, deleteCollection") == true)
        let two = parse("about: x\ncases:\n  - name: a\n    steps:\n      - scopes:\n        close:\n")
        let message = two.errors.first?.message ?? ""
        #expect(message.hasPrefix("a step needs exactly one of: createCollection, deleteCollection, collection"))
        #expect(message.hasSuffix("set, inspect; found scopes and close"))
    }

    @Test func missingRequiredKeysAndEmptyFiles() {
        #expect(
            parse("cases: []").errors.map(\.message) == [
                "missing required top-level key 'about'", "expected at least 1 element, found 0",
            ])
        #expect(parse("").errors.first?.message.hasPrefix("the file is empty") == true)
        #expect(parse("- a list").errors.first?.message == "expected an object, found a list of 1")
    }

    @Test func aliasesRepeatTheAnchoredValue() {
        let file = parse(
            "about: x\ncases:\n  - name: a\n    steps:\n      - inspect: &v {a: 1}\n        expect: {value: *v}\n")
        #expect(file.errors.isEmpty)
        #expect(ConformanceRunner(engine: MemoryEngine()).run(file.cases[0]).status == .passed)
    }

    @Test func duplicateKeysAreSyntaxErrors() {
        let file = parse("about: x\nabout: y\ncases: []\n")
        #expect(file.errors.first?.message == "duplicate key 'about' in a mapping")
    }

    @Test func duplicateCaseNamesAreErrorsOfTheSecondCase() {
        let file = parse(
            "about: x\ncases:\n  - name: a\n    steps: [{scopes: }]\n  - name: a\n    steps: [{scopes: }]\n")
        #expect(file.errors.isEmpty)
        #expect(file.cases.count == 2)
        #expect(file.cases[0].specErrors.isEmpty)
        #expect(file.cases[1].specErrors.first?.message == "duplicate case name \"a\"; the first is at inline.yaml:3:5")
    }

    @Test func undefinedVariablesAreFoundBeforeRunning() {
        let file = parse(
            """
            about: x
            cases:
              - name: a
                steps:
                  - save: {id: d, body: {}}
                    as: doc
                  - get: {id: "${docc._meta.id}"}
            """)
        let error = file.cases[0].specErrors.first
        #expect(error?.message == "undefined variable 'docc' in get; did you mean 'doc'?")
        #expect(error?.location.line == 7)
    }

    @Test func anErrorExpectationCannotAlsoExpectAValue() {
        let file = parse(
            "about: x\ncases:\n  - name: a\n    steps:\n      - scopes:\n        expect: {error: notFound, value: 1}\n")
        #expect(
            file.cases[0].specErrors.first?.message.hasPrefix("an error expectation cannot be combined with value")
                == true)
    }

    @Test func fileGivenIsMergedIntoCases() throws {
        let file = parse(
            """
            about: x
            given: {clock: manual, collections: [s.c]}
            cases:
              - name: a
                given: {collections: [t.d], database: other}
                steps: [{scopes: }]
            """)
        guard case .scenario(let scenario) = file.cases[0].content else {
            Issue.record("not runnable: \(file.cases[0].specErrors)")
            return
        }
        #expect(scenario.given.clock == .manual(start: ClockSetting.defaultManualStart))
        #expect(scenario.given.collections == [CollectionName("d", scope: "t")])
        #expect(scenario.given.database == "other")
    }

    @Test func oneBrokenFileDoesNotStopTheOthers() {
        let suite = ConformanceSuite.load(paths: [TestResources.path("malformed"), TestResources.path("passing")])
        let broken = suite.files.filter { !$0.errors.isEmpty }.map { URL(fileURLWithPath: $0.path).lastPathComponent }
        #expect(broken == ["misspelled-step.yaml", "syntax-error.yaml", "wrong-types.yaml"])
        #expect(suite.cases.filter { $0.specErrors.isEmpty }.count > 40)
    }

    @Test func discoveryIsSortedAndReportsMissingPaths() {
        let suite = ConformanceSuite.load(paths: [TestResources.path("passing"), "/no/such/dir"])
        #expect(suite.files.map(\.path) == suite.files.map(\.path).sorted())
        #expect(
            suite.files.contains {
                $0.path == "/no/such/dir" && $0.errors.first?.message == "no such file or directory"
            })
        #expect(!suite.files.contains { $0.path.hasSuffix(".json") })
    }
}
