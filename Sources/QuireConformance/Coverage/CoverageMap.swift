import Foundation

/// How the specs cover Couchbase Lite's own tests: every test of the list
/// (`couchbase-lite-tests.txt`) is covered by the cases whose `covers:` names it, marked not
/// applicable with a reason (`coverage-exclusions.txt`), or not covered yet.
///
/// ``markdown`` is `Specs/COVERAGE.md`, written by `quire conform --coverage`; a test keeps the
/// checked-in page equal to it.
package struct CoverageMap: Sendable {
    /// One test of Couchbase Lite, and what the specs say of it.
    package struct Entry: Sendable, Equatable {
        /// `Class.testName`.
        package let test: String
        /// The cases that cover it and run, as `path :: name` (vector rows counted once).
        package let cases: [String]
        /// Cases that name it but are skipped (`skip:`): they do not count.
        package let skippedCases: [String]
        /// Why the test does not apply to Quire, when it does not.
        package let exclusion: String?

        /// Whether a running case covers the test.
        package var isCovered: Bool { !cases.isEmpty }
    }

    /// The figures of one class.
    package struct ClassSummary: Sendable, Equatable {
        /// The class name.
        package let name: String
        /// Its tests in the list.
        package let tests: Int
        /// Tests marked not applicable.
        package let notApplicable: Int
        /// Applicable tests a running case covers.
        package let covered: Int
        /// Tests that apply to Quire.
        package var applicable: Int { tests - notApplicable }
        /// Covered tests in percent of the applicable ones (100 when none applies).
        package var percentage: Double { applicable == 0 ? 100 : Double(covered) * 100 / Double(applicable) }
    }

    /// The tests in list order.
    package let entries: [Entry]
    /// The source line of the list (`# couchbase/couchbase-lite-ios commit ...`), if it has one.
    package let source: String?

    /// The list's file name inside the specs directory.
    package static let testListFile = "couchbase-lite-tests.txt"
    /// The exclusions' file name inside the specs directory.
    package static let exclusionsFile = "coverage-exclusions.txt"
    /// The page's file name inside the specs directory.
    package static let pageFile = "COVERAGE.md"

    /// Builds the map from the texts of the test list and the exclusions and the loaded cases.
    ///
    /// - Parameters:
    ///   - testList: one `Class.testName` a line; `#` starts a comment line.
    ///   - exclusions: YAML, a mapping of `Class.testName` to the reason it does not apply.
    ///   - cases: the cases of the specs; a case whose file is under `specsDirectory` is named
    ///     by its path relative to it.
    ///   - specsDirectory: the specs directory's path, for those names.
    /// - Throws: ``CoverageError`` listing every problem: a name that is no test of the list
    ///   (in `covers:` or the exclusions), a test both covered and excluded, a malformed line.
    ///   - unitTests: unit tests that name Couchbase Lite tests (see ``UnitTest/scan(source:file:)``);
    ///     they count as cases named `file :: function`.
    package init(
        testList: String, exclusions: String, cases: [ConformanceCase], specsDirectory: String,
        unitTests: [UnitTest] = []
    ) throws {
        var problems: [String] = []
        var tests: [String] = []
        var source: String?
        for (index, rawLine) in testList.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if source == nil, line.contains("commit") {
                    source = line.dropFirst().trimmingCharacters(in: .whitespaces)
                }
                continue
            }
            guard Self.isTestName(line) else {
                problems.append("\(Self.testListFile):\(index + 1): \(JSONText.quote(line)) is not Class.testName")
                continue
            }
            if tests.contains(line) {
                problems.append("\(Self.testListFile):\(index + 1): \(line) is listed twice")
            } else {
                tests.append(line)
            }
        }
        let known = Set(tests)

        var reasons: [String: String] = [:]
        do {
            if let root = try SpecNode.parse(yaml: exclusions, file: Self.exclusionsFile) {
                if let entries = root.entries {
                    for entry in entries {
                        guard let reason = entry.value.scalar?.stringValue, !reason.isEmpty else {
                            problems.append("\(entry.keyLocation): \(entry.key) needs a reason (text)")
                            continue
                        }
                        if !known.contains(entry.key) {
                            problems.append("\(entry.keyLocation): \(entry.key) is no test of \(Self.testListFile)")
                        }
                        reasons[entry.key] = reason
                    }
                } else {
                    problems.append("\(Self.exclusionsFile): expected a mapping of test names to reasons")
                }
            }
        } catch {
            problems.append("\(error)")
        }

        let prefix = specsDirectory.hasSuffix("/") ? specsDirectory : specsDirectory + "/"
        var running: [String: [String]] = [:]
        var skipped: [String: [String]] = [:]
        // Credits `caseName` (once in a row) with each test it covers, or says which is unknown.
        func credit(_ covers: [String], to caseName: String, at location: String, in table: inout [String: [String]]) {
            for test in covers {
                guard known.contains(test) else {
                    problems.append("\(location): covers \(test), which is no test of \(Self.testListFile)")
                    continue
                }
                if table[test, default: []].last != caseName { table[test, default: []].append(caseName) }
            }
        }
        for testCase in cases {
            let file = testCase.file.hasPrefix(prefix) ? String(testCase.file.dropFirst(prefix.count)) : testCase.file
            let caseName = "\(file) :: \(testCase.baseName)"
            if testCase.isSkipped {
                credit(testCase.covers, to: caseName, at: "\(testCase.location)", in: &skipped)
            } else {
                credit(testCase.covers, to: caseName, at: "\(testCase.location)", in: &running)
            }
        }
        for unitTest in unitTests {
            credit(
                unitTest.covers, to: "\(unitTest.file) :: \(unitTest.function)",
                at: "\(unitTest.file):\(unitTest.line)",
                in: &running)
        }
        for test in tests where reasons[test] != nil && running[test] != nil {
            problems.append("\(test) is covered by \(running[test]![0]) and excluded as not applicable; choose one")
        }
        guard problems.isEmpty else { throw CoverageError(problems: Array(Set(problems)).sorted()) }
        self.source = source
        self.entries = tests.map {
            Entry(test: $0, cases: running[$0] ?? [], skippedCases: skipped[$0] ?? [], exclusion: reasons[$0])
        }
    }

    /// Reads `couchbase-lite-tests.txt`, `coverage-exclusions.txt` and the specs of a specs
    /// directory.
    package static func load(specsDirectory: URL) throws -> CoverageMap {
        let directory = specsDirectory.standardizedFileURL
        func text(_ name: String) throws -> String {
            do {
                return try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            } catch {
                throw CoverageError(problems: ["cannot read \(directory.appendingPathComponent(name).path): \(error)"])
            }
        }
        let suite = ConformanceSuite.load(paths: [directory.path])
        return try CoverageMap(
            testList: try text(testListFile), exclusions: try text(exclusionsFile), cases: suite.cases,
            specsDirectory: directory.path,
            unitTests: UnitTest.scan(packageDirectory: directory.deletingLastPathComponent()))
    }

    /// A unit test (Swift Testing, under `Tests/`) that says which Couchbase Lite tests it
    /// follows with a comment line `// covers: Class.testName, Class.testName` just above its
    /// `@Test`. Unit tests run in CI as spec cases do, so they count the same.
    package struct UnitTest: Sendable, Equatable {
        /// The file, relative to the package (`Tests/QuireTests/FragmentTests.swift`).
        package let file: String
        /// The test function's name.
        package let function: String
        /// The line of its `@Test`.
        package let line: Int
        /// The Couchbase Lite tests it names.
        package let covers: [String]

        package init(file: String, function: String, line: Int, covers: [String]) {
            self.file = file
            self.function = function
            self.line = line
            self.covers = covers
        }

        /// The unit tests of one source file that carry `// covers:` lines; a `covers:` line
        /// counts for the next `@Test` only, whose `func` may follow on a later line (an
        /// attribute with arguments spread over several lines).
        package static func scan(source: String, file: String) -> [UnitTest] {
            var found: [UnitTest] = []
            var pending: [String] = []
            var attributeLine: Int?
            for (index, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = rawLine.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("// covers:") {
                    pending += line.dropFirst("// covers:".count).split(separator: ",").map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }.filter { !$0.isEmpty }
                    continue
                }
                if !pending.isEmpty, attributeLine == nil, line.hasPrefix("@Test") { attributeLine = index + 1 }
                if let testLine = attributeLine,
                    let name = line.range(of: #"func [A-Za-z_][A-Za-z0-9_]*"#, options: .regularExpression)
                {
                    found.append(
                        UnitTest(
                            file: file, function: String(line[name].dropFirst(5)), line: testLine, covers: pending))
                    pending = []
                    attributeLine = nil
                }
            }
            return found
        }

        /// The unit tests of every `.swift` file under `Tests/` of a package directory.
        package static func scan(packageDirectory: URL) -> [UnitTest] {
            let tests = packageDirectory.appendingPathComponent("Tests")
            guard let walker = FileManager.default.enumerator(atPath: tests.path) else { return [] }
            var files: [String] = []
            while let path = walker.nextObject() as? String {
                if path.hasSuffix(".swift") { files.append(path) }
            }
            return files.sorted().flatMap { path -> [UnitTest] in
                guard let text = try? String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8) else {
                    return []
                }
                return scan(source: text, file: "Tests/" + path)
            }
        }
    }

    /// The classes in the order of the list, with their figures.
    package var classes: [ClassSummary] {
        var order: [String] = []
        var grouped: [String: [Entry]] = [:]
        for entry in entries {
            let name = Self.className(entry.test)
            if grouped[name] == nil { order.append(name) }
            grouped[name, default: []].append(entry)
        }
        return order.map { name in
            let group = grouped[name]!
            return ClassSummary(
                name: name, tests: group.count, notApplicable: group.filter { $0.exclusion != nil }.count,
                covered: group.filter { $0.exclusion == nil && $0.isCovered }.count)
        }
    }

    /// The figures of all classes together.
    package var total: ClassSummary {
        let all = classes
        return ClassSummary(
            name: "total", tests: all.reduce(0) { $0 + $1.tests },
            notApplicable: all.reduce(0) { $0 + $1.notApplicable }, covered: all.reduce(0) { $0 + $1.covered })
    }

    /// The page, `Specs/COVERAGE.md`.
    package var markdown: String {
        var lines: [String] = [
            "# Coverage of Couchbase Lite's tests",
            "",
            "Generated by `swift run quire conform --coverage` from the `covers:` keys of the spec cases,",
            "`\(Self.testListFile)` (\(source ?? "no source line")) and",
            "`\(Self.exclusionsFile)`; do not edit it by hand. A test is covered when a case that runs",
            "(no `skip:`) names it in `covers:`, or a unit test under `Tests/` names it in a",
            "`// covers:` line above its `@Test`; every such case and test passes in CI. Not applicable",
            "tests (Enterprise-only, Sync Gateway, platform- or API-specific) do not count.",
            "",
            "| class | tests | not applicable | applicable | covered | covered % |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for summary in classes + [total] {
            let name = summary.name == "total" ? "**total**" : "[\(summary.name)](#\(summary.name.lowercased()))"
            lines.append(
                "| \(name) | \(summary.tests) | \(summary.notApplicable) | \(summary.applicable) | \(summary.covered) | \(Self.percent(summary.percentage)) |"
            )
        }
        var current = ""
        for entry in entries {
            let name = Self.className(entry.test)
            if name != current {
                current = name
                lines += ["", "## \(name)", "", "| test | status | cases |", "| --- | --- | --- |"]
            }
            let test = "`" + entry.test.dropFirst(name.count + 1) + "`"
            let status: String
            var cases = entry.cases.map { "`\(Self.escaped($0))`" }
            if let reason = entry.exclusion {
                status = "n/a: " + Self.escaped(reason)
            } else if entry.isCovered {
                status = "covered"
            } else {
                status = "**not covered**"
            }
            cases += entry.skippedCases.map { "`\(Self.escaped($0))` (skipped)" }
            lines.append("| \(test) | \(status) | \(cases.joined(separator: "<br>")) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func isTestName(_ text: String) -> Bool {
        text.range(of: #"^[A-Z][A-Za-z0-9_]*\.test[A-Za-z0-9_]*$"#, options: .regularExpression) != nil
    }

    static func className(_ test: String) -> String {
        String(test.prefix(while: { $0 != "." }))
    }

    /// A percentage with one decimal: `91.7%`.
    package static func percent(_ value: Double) -> String {
        String(format: "%.1f%%", value)
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}

/// The problems that keep the coverage map from being built.
package struct CoverageError: Error, CustomStringConvertible, Equatable {
    /// One line per problem.
    package let problems: [String]

    /// The problems, one a line.
    package var description: String { problems.joined(separator: "\n") }
}
