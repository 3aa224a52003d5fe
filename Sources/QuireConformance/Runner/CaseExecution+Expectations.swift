import Foundation
import Quire

// Checking a step's outcome against its `expect:`.
extension CaseExecution {
    func check(
        _ expectation: Expectation, against outcome: Result<SpecValue?, any Error>, step: StepTemplate,
        rendered: String, performed: Step?
    ) throws {
        func fail(_ message: String, expected: String, actual: String) -> Stop {
            Stop(
                status: .failed,
                failure: CaseFailure(
                    message: message, location: step.location, step: rendered,
                    expected: expected, actual: actual))
        }
        switch outcome {
        case .failure(let thrown):
            let error = Self.engineError(thrown)
            guard let pattern = expectation.error else {
                if error.domain == EngineError.runnerDomain {
                    // The runner could not do the step as written; the store was never asked.
                    throw Stop(
                        status: .error,
                        failure: CaseFailure(
                            message: "the runner refused \(step.keyword) (not an error of the store)",
                            location: step.location,
                            step: rendered, expected: "success", actual: "error \(error)"))
                }
                let stop = fail("\(step.keyword) failed", expected: "success", actual: "error \(error)")
                // The contract broke (an unsupported step), not the store's behaviour.
                throw error.domain == EngineError.conformanceDomain ? Stop(status: .error, failure: stop.failure) : stop
            }
            guard pattern.matches(error) else {
                throw fail(
                    "\(step.keyword) failed with another error", expected: pattern.description, actual: "error \(error)"
                )
            }
        case .success(let result):
            if let pattern = expectation.error {
                let returned = result.map { ", returned \(ValueMatcher.render($0))" } ?? ""
                throw fail(
                    "\(step.keyword) succeeded but should have failed", expected: pattern.description,
                    actual: "success\(returned)")
            }
            let actual = result ?? .null
            let typed = expectation.typed
            if let expected = expectation.value {
                let compared = Self.withoutMeta(actual, unlessIn: expected)
                if let mismatch = ValueMatcher.mismatch(
                    expected: expected, actual: compared, partial: false, typed: typed)
                {
                    throw fail(
                        "\(step.keyword) returned another value (\(mismatch.description))",
                        expected: ValueMatcher.render(expected), actual: ValueMatcher.render(compared))
                }
            }
            if let expected = expectation.partial,
                let mismatch = ValueMatcher.mismatch(expected: expected, actual: actual, partial: true, typed: typed)
            {
                throw fail(
                    "\(step.keyword) returned a value that does not match (\(mismatch.description))",
                    expected: "a value matching \(ValueMatcher.render(expected))", actual: ValueMatcher.render(actual))
            }
            if let unwanted = expectation.notEqual {
                let compared = Self.withoutMeta(actual, unlessIn: unwanted)
                if ValueMatcher.mismatch(expected: unwanted, actual: compared, partial: false, typed: typed) == nil {
                    throw fail(
                        "\(step.keyword) returned the value it should differ from",
                        expected: "a value other than \(ValueMatcher.render(unwanted))",
                        actual: ValueMatcher.render(compared))
                }
            }
            if !expectation.contains.isEmpty || !expectation.lacks.isEmpty || expectation.keyCount != nil {
                guard case .object(var members) = actual else {
                    throw fail(
                        "\(step.keyword) returned no document to look into", expected: "a document",
                        actual: ValueMatcher.render(actual))
                }
                members[DocumentSnapshot.metaKey] = nil
                let body = SpecValue.object(members)
                for key in expectation.contains where body.value(at: key.split(separator: ".").map(String.init)) == nil
                {
                    throw fail(
                        "\(step.keyword) returned a document without key '\(key)'", expected: "a value at '\(key)'",
                        actual: ValueMatcher.render(body))
                }
                for key in expectation.lacks {
                    if let found = body.value(at: key.split(separator: ".").map(String.init)) {
                        throw fail(
                            "\(step.keyword) returned a document with key '\(key)'", expected: "no value at '\(key)'",
                            actual: ValueMatcher.render(found))
                    }
                }
                if let count = expectation.keyCount, members.count != count {
                    throw fail(
                        "\(step.keyword) returned a document with another number of keys",
                        expected: "\(count) keys (_meta not counted)",
                        actual: "\(members.count): \(members.keys.sorted().joined(separator: ", "))")
                }
            }
            if !expectation.textMatches.isEmpty || !expectation.textLacks.isEmpty {
                guard case .string(let text) = actual else {
                    throw fail(
                        "\(step.keyword) returned no text to search", expected: "text",
                        actual: ValueMatcher.render(actual))
                }
                for pattern in expectation.textMatches where !Self.contains(text, pattern) {
                    throw fail(
                        "\(step.keyword) returned text without a match of /\(pattern)/",
                        expected: "text matching /\(pattern)/", actual: ValueMatcher.render(actual, limit: 2000))
                }
                for pattern in expectation.textLacks where Self.contains(text, pattern) {
                    throw fail(
                        "\(step.keyword) returned text with a match of /\(pattern)/",
                        expected: "text without a match of /\(pattern)/",
                        actual: ValueMatcher.render(actual, limit: 2000))
                }
            }
            if let count = expectation.count {
                let found: Int?
                switch actual {
                case .int(let number): found = number
                case .array(let elements): found = elements.count
                case .object(let members): found = members.count
                default: found = nil
                }
                if found != count {
                    throw fail(
                        "\(step.keyword) returned another count", expected: "count \(count)",
                        actual: found.map { "count \($0): \(ValueMatcher.render(actual))" }
                            ?? ValueMatcher.render(actual))
                }
            }
        }
        if expectation.needsDocument {
            try checkDocuments(
                expectation, step: step, rendered: rendered, performed: performed, outcome: outcome, fail: fail)
        }
    }

    /// Whether `text` contains a match of `pattern` (checked to compile when the spec loaded).
    static func contains(_ text: String, _ pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return false }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    func checkDocuments(
        _ expectation: Expectation, step: StepTemplate, rendered: String, performed: Step?,
        outcome: Result<SpecValue?, any Error>, fail: (String, String, String) -> Stop
    ) throws {
        func stepDocument() throws -> DocumentReference {
            if let reference = performed?.document { return reference }
            // A save without an ID: the engine chose one, and returned it.
            if case .success(let value?) = outcome, let meta = value[DocumentSnapshot.metaKey],
                let id = meta["id"]?.stringValue
            {
                return DocumentReference(
                    id, in: meta["collection"]?.stringValue.map(CollectionName.init(fullName:)) ?? .default)
            }
            throw specError(
                "\(step.keyword) is not about one document; name it in the expectation ({id: ..., collection: ...})",
                at: step.expectLocation ?? step.location, step: rendered)
        }
        func state(of reference: DocumentReference) throws -> DocumentState {
            do {
                return try session.documentState(of: reference)
            } catch {
                try Self.skipIfMissingCapability(error, at: step.location, step: rendered)
                throw Stop(
                    status: .error,
                    failure: CaseFailure(
                        message: "could not read the state of document \(reference)", location: step.location,
                        step: rendered,
                        actual: "error \(Self.engineError(error))"))
            }
        }
        for (check, target) in expectation.documentChecks {
            let reference = try target ?? stepDocument()
            let found = try state(of: reference)
            guard check.accepts(found) else {
                throw fail(
                    "document \(reference) \(Self.failureWording(check)): it is \(Self.describe(found))",
                    check.expectation, Self.describe(found))
            }
        }
        guard !expectation.unexpectedProperties.isEmpty || expectation.missingBlob != nil else { return }
        let reference = try stepDocument()
        guard case .live(let snapshot) = try state(of: reference) else {
            throw fail("document \(reference) was not found", "a live document", "not found")
        }
        let body = SpecValue.object(snapshot.properties)
        for key in expectation.unexpectedProperties {
            if let value = body.value(at: key.split(separator: ".").map(String.init)) {
                throw fail(
                    "document \(reference) had an unexpected property at key '\(key)'",
                    "no property at '\(key)'", ValueMatcher.render(value))
            }
        }
        if let key = expectation.missingBlob {
            guard let blob = body.value(at: key.split(separator: ".").map(String.init)),
                blob["@type"] == "blob", let digest = blob["digest"]?.stringValue
            else {
                throw fail(
                    "document \(reference) has no blob at '\(key)'", "a blob at '\(key)'",
                    ValueMatcher.render(body.value(at: key.split(separator: ".").map(String.init)) ?? .null))
            }
            let stored: Bool
            do {
                stored = try session.isBlobStored(digest: digest)
            } catch {
                throw Stop(
                    status: .error,
                    failure: CaseFailure(
                        message: "could not check blob \(digest)", location: step.location, step: rendered,
                        actual: "error \(Self.engineError(error))"))
            }
            if stored {
                throw fail(
                    "the blob at '\(key)' in document \(reference) is stored", "missing blob \(digest)", "stored")
            }
        }
    }
}
