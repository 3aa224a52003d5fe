import Foundation

/// Reads spec files: YAML, then the JSON Schema, then the checks a schema cannot express
/// (unique case names, defined variables, sensible combinations), then vector expansion.
///
/// A problem with the file as a whole (syntax, schema) turns it into one stand-in case that
/// reports the errors; a problem with one case turns only that case into a stand-in.
enum SpecLoader {
    /// Variables every case has: its seed, its name and its directory.
    static let builtinVariables: Set<String> = ["seed", "case", "directory"]
    /// Keys of a step mapping that are not the action.
    static let stepModifiers: Set<String> = ["expect", "as"]
    /// How many errors of one file are listed before the rest are summarised.
    static let errorLimit = 20

    /// Reads and parses the file at `path`.
    static func load(path: String, seed: UInt64) -> SpecFile {
        let url = URL(fileURLWithPath: path)
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            return invalidFile(
                path: path,
                errors: [
                    SpecError(
                        "cannot read the file: \(error.localizedDescription)",
                        at: SourceLocation(file: path, line: 0, column: 0))
                ])
        }
        return parse(text: text, path: path, specDirectory: url.deletingLastPathComponent(), seed: seed)
    }

    /// Parses spec text; `path` is used in locations and case ids.
    static func parse(text: String, path: String, specDirectory: URL, seed: UInt64) -> SpecFile {
        let root: SpecNode
        do {
            guard let parsed = try SpecNode.parse(yaml: text, file: path) else {
                return invalidFile(
                    path: path,
                    errors: [
                        SpecError(
                            "the file is empty; a spec file needs 'about' and 'cases'",
                            at: SourceLocation(file: path, line: 1, column: 1))
                    ])
            }
            root = parsed
        } catch let error as SpecError {
            return invalidFile(path: path, errors: [error])
        } catch {
            return invalidFile(
                path: path, errors: [SpecError("\(error)", at: SourceLocation(file: path, line: 1, column: 1))])
        }
        let schema: JSONSchema
        switch SpecSchema.validator {
        case .success(let loaded): schema = loaded
        case .failure(let error):
            return invalidFile(
                path: path, errors: [SpecError("the built-in schema is broken: \(error)", at: root.location)])
        }
        let violations = schema.validate(root)
        guard violations.isEmpty else {
            var errors = violations.prefix(errorLimit).map(\.specError)
            if violations.count > errorLimit {
                errors.append(
                    SpecError(
                        "... and \(violations.count - errorLimit) more problems", at: violations[errorLimit].location))
            }
            return invalidFile(path: path, errors: errors)
        }
        let fileTags = root["tags"]?.value.arrayValue?.compactMap(\.stringValue) ?? []
        var cases: [ConformanceCase] = []
        var seenNames: [String: SourceLocation] = [:]
        for caseNode in root["cases"]?.elements ?? [] {
            let name = caseNode["name"]?.scalar?.stringValue ?? ""
            if let first = seenNames[name] {
                let error = SpecError(
                    "duplicate case name \(JSONText.quote(name)); the first is at \(first)", at: caseNode.location)
                cases.append(
                    invalidCase(path: path, name: name, tags: fileTags, location: caseNode.location, errors: [error]))
                continue
            }
            seenNames[name] = caseNode.location
            let expanded = expand(
                caseNode, name: name, path: path, fileTags: fileTags, fileGiven: root["given"],
                specDirectory: specDirectory, seed: seed)
            guard cases.count + expanded.count <= SpecLimits.maximumCasesPerFile else {
                let error = SpecError(
                    "the file expands to more than \(SpecLimits.maximumCasesPerFile) cases; split it",
                    at: caseNode.location)
                cases.append(
                    invalidCase(path: path, name: name, tags: fileTags, location: caseNode.location, errors: [error]))
                continue
            }
            cases += expanded
        }
        return SpecFile(path: path, about: root["about"]?.scalar?.stringValue, tags: fileTags, cases: cases, errors: [])
    }

    // MARK: Cases

    private static func expand(
        _ node: SpecNode, name: String, path: String, fileTags: [String], fileGiven: SpecNode?,
        specDirectory: URL, seed: UInt64
    ) -> [ConformanceCase] {
        let tags =
            fileTags
            + (node["tags"]?.value.arrayValue?.compactMap(\.stringValue) ?? []).filter { !fileTags.contains($0) }
        let rows: [VectorTable.Row]
        let steps: [StepTemplate]
        let performance: PerformanceTemplate?
        do {
            rows =
                try node["vectors"].map { try VectorTable.rows(from: $0, caseName: name, seed: seed) } ?? [
                    VectorTable.Row(bindings: [], labels: [])
                ]
            steps = try (node["steps"]?.elements ?? []).map(template(of:))
            performance = try node["perf"].map(performanceTemplate(of:))
        } catch let error as SpecError {
            return [invalidCase(path: path, name: name, tags: tags, location: node.location, errors: [error])]
        } catch {
            return [
                invalidCase(
                    path: path, name: name, tags: tags, location: node.location,
                    errors: [SpecError("\(error)", at: node.location)])
            ]
        }
        let names = expandedNames(base: name, rows: rows)
        return zip(rows, names).map { row, expandedName in
            let caseSeed = SeededRandom.derive(seed, expandedName)
            var variables: [String: SpecValue] = [:]
            for binding in row.bindings { variables[binding.name] = binding.value }
            variables["seed"] = .int(Int(truncatingIfNeeded: caseSeed))
            variables["case"] = .string(expandedName)
            do {
                var defined = Set(variables.keys).union(builtinVariables)
                try checkReferences(in: steps, defined: &defined)
                if let performance {
                    defined.formUnion(CaseExecution.iterationVariables)
                    try checkReferences(in: performance.prepare, defined: &defined)
                    try checkReferences(in: performance.workload, defined: &defined)
                }
                let given = try GivenParser.given(
                    file: fileGiven, case: node["given"], variables: variables,
                    specDirectory: specDirectory, location: node.location)
                let scenario = Scenario(
                    given: given, steps: steps, performance: performance, variables: variables,
                    specDirectory: specDirectory, seed: caseSeed,
                    skipReason: node["skip"]?.scalar?.stringValue)
                return ConformanceCase(
                    file: path, name: expandedName, baseName: name, tags: tags, location: node.location,
                    bindings: row.bindings,
                    covers: node["covers"]?.value.arrayValue?.compactMap(\.stringValue) ?? [],
                    reference: node["reference"]?.scalar?.stringValue,
                    content: .scenario(scenario))
            } catch let error as SpecError {
                return invalidCase(
                    path: path, name: expandedName, tags: tags, location: node.location, errors: [error], baseName: name
                )
            } catch {
                return invalidCase(
                    path: path, name: expandedName, tags: tags, location: node.location,
                    errors: [SpecError("\(error)", at: node.location)], baseName: name)
            }
        }
    }

    /// `name [a=1, b=x]` per row; rows whose labels collide get ` #row` appended.
    private static func expandedNames(base: String, rows: [VectorTable.Row]) -> [String] {
        let names = rows.map { $0.labels.isEmpty ? base : "\(base) [\($0.labels.joined(separator: ", "))]" }
        var counts: [String: Int] = [:]
        for name in names { counts[name, default: 0] += 1 }
        return names.enumerated().map { index, name in (counts[name] ?? 0) > 1 ? "\(name) #\(index + 1)" : name }
    }

    // MARK: Steps

    static func template(of node: SpecNode) throws -> StepTemplate {
        guard let entries = node.entries, let action = entries.first(where: { !stepModifiers.contains($0.key) }) else {
            throw SpecError("a step needs an action", at: node.location)
        }
        var arguments = action.value.value
        var nested: [StepTemplate] = []
        if action.key == "batch" || action.key == "repeat", let inner = action.value["steps"]?.elements {
            nested = try inner.map(template(of:))
            if case .object(var members) = arguments {
                members["steps"] = nil
                arguments = .object(members)
            }
            if let after = arguments["throwAfter"]?.intValue, after > nested.count {
                throw SpecError(
                    "throwAfter \(after) is more than the batch's \(nested.count) steps", at: action.value.location)
            }
        }
        let expect = node["expect"]
        if let expect = expect?.value {
            let conflicting = [
                "value", "matches", "count", "textMatches", "textLacks", "notEqual", "contains", "lacks", "keyCount",
            ].filter { expect[$0] != nil }
            if expect["error"] != nil && !conflicting.isEmpty {
                throw SpecError(
                    "an error expectation cannot be combined with \(conflicting.joined(separator: ", ")): a step that fails returns nothing",
                    at: node["expect"]?.location ?? node.location)
            }
            if expect["error"] != nil && expect["ok"] != nil {
                throw SpecError("'ok' and 'error' contradict each other", at: node["expect"]?.location ?? node.location)
            }
        }
        return StepTemplate(
            keyword: action.key, arguments: arguments, expect: expect?.value, expectLocation: expect?.location,
            bind: node["as"]?.scalar?.stringValue, location: node.location, nested: nested)
    }

    private static func performanceTemplate(of node: SpecNode) throws -> PerformanceTemplate {
        let workload = try (node["workload"]?.elements ?? []).map(template(of:))
        let prepare = try (node["prepare"]?.elements ?? []).map(template(of:))
        if let step = (prepare + workload).first(where: {
            !StepDecoder.engineKeywords.contains($0.keyword) || $0.expect != nil || $0.bind != nil
        }) {
            throw SpecError(
                "a workload step is timed as a bare engine call: '\(step.keyword)'\(step.expect != nil ? " with expect" : step.bind != nil ? " with as" : "") is not allowed here (use inBatch: true for a batch)",
                at: step.location)
        }
        let suite = node["suite"]?.scalar?.stringValue
        let baseline = node["baseline"]?.scalar?.stringValue ?? ""
        if let suite {
            if suite.isEmpty { throw SpecError("suite names spec files or a folder of them", at: node.location) }
            if !workload.isEmpty || !prepare.isEmpty {
                throw SpecError(
                    "a suite case times the runner on its spec files: it has no workload or prepare steps",
                    at: node.location)
            }
            if baseline != SuiteMeasurement.baselineName {
                throw SpecError(
                    "a suite case's baseline is \(SuiteMeasurement.baselineName), not '\(baseline)'", at: node.location)
            }
            if node["threads"] != nil || node["inBatch"] != nil || node["sizes"] != nil {
                throw SpecError(
                    "a suite case runs its iterations one after another: no threads, inBatch or sizes",
                    at: node.location)
            }
        } else if baseline == SuiteMeasurement.baselineName {
            throw SpecError(
                "the baseline \(SuiteMeasurement.baselineName) replays a suite: it needs suite, not a workload",
                at: node.location)
        } else if workload.isEmpty {
            throw SpecError("a performance case needs a workload (or a suite)", at: node.location)
        }
        let sizes =
            node["sizes"]?.value.arrayValue?.compactMap(\.intValue) ?? [node["iterations"]?.scalar?.intValue ?? 1]
        let maxGrowth = node["maxGrowth"]?.scalar?.doubleValue
        let threads =
            node["threads"].map { $0.value.arrayValue?.compactMap(\.intValue) ?? [$0.scalar?.intValue ?? 1] } ?? [1]
        if threads.isEmpty || threads.count > 2
            || threads.contains(where: { !(1...SpecLimits.maximumPerformanceThreads).contains($0) })
        {
            throw SpecError(
                "threads is one count or two, each in 1...\(SpecLimits.maximumPerformanceThreads)", at: node.location)
        }
        if threads.count == 2 && sizes.count == 2 {
            throw SpecError("a case compares two sizes or two thread counts, not both", at: node.location)
        }
        if threads.count == 2 && threads[0] >= threads[1] {
            throw SpecError("threads must grow: \(threads[0]) is not less than \(threads[1])", at: node.location)
        }
        if threads.contains(where: { $0 > 1 }) && node["inBatch"]?.scalar?.boolValue == true {
            throw SpecError(
                "a batch runs on one thread: inBatch and threads above 1 exclude each other", at: node.location)
        }
        if maxGrowth != nil && sizes.count != 2 && threads.count != 2 {
            throw SpecError(
                "maxGrowth needs two sizes (sizes: [small, large]) or two thread counts (threads: [1, 2])",
                at: node.location)
        }
        if sizes.count == 2 && sizes[0] >= sizes[1] {
            throw SpecError("sizes must grow: \(sizes[0]) is not less than \(sizes[1])", at: node.location)
        }
        let prepareIterations = node["prepareIterations"]?.scalar?.intValue ?? 1
        let rounds = node["rounds"]?.scalar?.intValue ?? 5
        let warmup = node["warmup"]?.scalar?.intValue ?? 1
        for (iterations, count) in sizes.map({ ($0, workload.count) }) + [(prepareIterations, prepare.count)] {
            let (steps, overflow) = iterations.multipliedReportingOverflow(by: max(count, 1))
            guard !overflow, steps <= SpecLimits.maximumPerformanceSteps else {
                throw SpecError(
                    "\(iterations) iterations of \(count) steps is more than the \(SpecLimits.maximumPerformanceSteps) steps a performance case may run",
                    at: node.location)
            }
        }
        return PerformanceTemplate(
            workload: workload,
            baseline: baseline,
            sizes: sizes,
            maxRatio: node["maxRatio"]?.scalar?.doubleValue ?? 1,
            maxGrowth: maxGrowth,
            threads: threads,
            inBatch: node["inBatch"]?.scalar?.boolValue ?? false,
            prepare: prepare,
            prepareIterations: prepareIterations,
            rounds: rounds,
            warmup: warmup,
            suite: suite,
            location: node.location)
    }

    /// Every `${name}` must be bound before the step that uses it: by vectors, a built-in,
    /// an earlier `as:`, or an earlier `set`.
    private static func checkReferences(in steps: [StepTemplate], defined: inout Set<String>) throws {
        for step in steps {
            for value in [step.arguments, step.expect ?? .null] {
                for reference in Template.references(in: value) where !defined.contains(reference.name) {
                    throw SpecError(
                        "undefined variable '\(reference.name)' in \(step.keyword)\(Suggestion.didYouMean(reference.name, in: defined))",
                        at: step.location)
                }
            }
            if step.keyword == "repeat", let variable = step.arguments["variable"]?.stringValue {
                defined.insert(variable)
            }
            try checkReferences(in: step.nested, defined: &defined)
            if step.keyword == "set" { defined.formUnion(step.arguments.objectValue.map { Array($0.keys) } ?? []) }
            if let bind = step.bind { defined.insert(bind) }
        }
    }

    // MARK: Stand-ins

    private static func invalidFile(path: String, errors: [SpecError]) -> SpecFile {
        let location = errors.first?.location ?? SourceLocation(file: path, line: 0, column: 0)
        let standIn = invalidCase(
            path: path, name: SpecFile.invalidFileCaseName, tags: [], location: location, errors: errors)
        return SpecFile(path: path, about: nil, tags: [], cases: [standIn], errors: errors)
    }

    private static func invalidCase(
        path: String, name: String, tags: [String], location: SourceLocation, errors: [SpecError],
        baseName: String? = nil
    ) -> ConformanceCase {
        ConformanceCase(
            file: path, name: name, baseName: baseName ?? name, tags: tags, location: location,
            bindings: [], content: .invalid(errors))
    }
}
