import Foundation
import Testing

@testable import QuireConformance

/// Every expectation the loop, listener, conflict-handler, second-database-object,
/// scope-object, blob-count, configuration, variable-function, query-result,
/// live-query-parameter and held-object steps make possible is shown to fail when it should
/// (`Resources/failing-steps`, on the Quire
/// engine), with a failure that says what happened.
@Suite struct SpecStepFailureTests {
    /// The report of the deliberate cases, made once on a thread of its own: its cases wait
    /// for async work (listeners, live queries), which the waiting tests must not starve by
    /// blocking Swift concurrency's threads on a static initializer.
    private static let reportTask = Task<RunReport, Never> { await onOwnThread(makeReport) }

    private static func makeReport() -> RunReport {
        let suite = ConformanceSuite.load(paths: [TestResources.path("failing-steps")])
        return ConformanceRunner(engine: QuireEngine(), options: RunnerOptions(jobs: 2)).run(
            suite, selection: CaseSelection())
    }

    private static func report() async -> RunReport { await reportTask.value }

    private func failure(_ name: String) async throws -> CaseFailure {
        let report = await Self.report()
        let result = try #require(report.results.first { $0.testCase.name == name }, "no case '\(name)'")
        #expect(result.status == .failed || result.status == .error, "\(name): \(result.status)")
        return try #require(result.failure, "\(name) has no failure")
    }

    @Test func everyDeliberateCaseFailsOrIsAnError() async {
        let report = await Self.report()
        #expect(report.results.count == 33)
        #expect(
            report.results.allSatisfy { $0.status == .failed || $0.status == .error },
            "\(TextReporter().render(report))")
    }

    @Test func aRepeatSaysInWhichIterationItBroke() async throws {
        let broken = try await failure("a repeat stops at the iteration whose expectation breaks")
        #expect(broken.message.hasSuffix("(repeat iteration 2 of 5)"), "\(broken.message)")
        #expect(broken.step?.contains("doc_1") == true)
        let never = try await failure("a repeat that never runs cannot carry an expectation")
        #expect(never.message.contains("never runs"))
    }

    @Test func aRemovedListenerHearsNothingMore() async throws {
        let removed = try await failure("a removed listener is expected to hear a later save")
        #expect(removed.actual == #"["a"]"#)
    }

    @Test func conflictHandlersDoWhatTheyChose() async throws {
        let cancelled = try await failure("a cancelled save is expected to save")
        #expect(cancelled.actual?.contains(#""saved":false"#) == true, "\(cancelled.actual ?? "")")
        let theirs = try await failure("keepTheirs is expected to keep mine")
        #expect(theirs.actual == #"{"v":2}"#)
        let merged = try await failure("a merge is expected to leave the merged key alone")
        #expect(merged.actual == #"{"k":"stored","v":3}"#)
    }

    @Test func anotherDatabaseObjectReadsTheSameFile() async throws {
        let other = try await failure("another object is expected to miss a committed save")
        #expect(other.actual == #"{"v":1}"#)
        #expect(other.step == #"get {"id":"d"}"#)
    }

    @Test func variableFunctionsChangeTheValue() async throws {
        let port = try await failure("a URL without its port is expected to keep it")
        #expect(port.actual == #""http://127.0.0.1/db""#)
        let host = try await failure("a replaced host is expected unchanged")
        #expect(host.actual == #""localhost""#)
        let unknown = try await failure("an unknown variable function is a spec error")
        #expect(unknown.message.contains("unknown function 'hots'") && unknown.message.contains("host"))
        let list = try await failure("a list variable is expected to leave the keys it names")
        #expect(list.step?.contains(#""unset":["a","b"]"#) == true, "\(list.step ?? "")")
        #expect(
            list.actual?.contains(#""c":3"#) == true && list.actual?.contains(#""a""#) == false, "\(list.actual ?? "")")
    }

    @Test func queryResultFormsGiveWhatTheyRead() async throws {
        let arrays = try await failure("rows read by index are expected by key")
        #expect(arrays.actual == "[[1,null],[2,null]]", "\(arrays.actual ?? "")")
        let json = try await failure("a row's JSON text is expected with a MISSING column")
        #expect(json.actual == #"["{\"n\":1}"]"#, "\(json.actual ?? "")")
        let columns = try await failure("column names are expected in another order")
        #expect(columns.actual == #"["n","id"]"#, "\(columns.actual ?? "")")
        let past = try await failure("a read past the end is expected to give a row")
        #expect(past.actual == "[[[1],[2]],null]", "\(past.actual ?? "")")
    }

    @Test func liveQueriesShareAQueryAndTakeNewParameters() async throws {
        let second = try await failure("a second listener on one query is expected to miss the first results")
        #expect(second.actual == "[2]", "\(second.actual ?? "")")
        let parameters = try await failure("new live query parameters are expected to change nothing")
        #expect(parameters.actual == "1", "\(parameters.actual ?? "")")
    }

    @Test func integerFunctionsChangeTheValue() async throws {
        let added = try await failure("an integer function is expected to leave the value alone")
        #expect(added.actual == "5", "\(added.actual ?? "")")
        let text = try await failure("an integer function on text is a spec error")
        #expect(text.message.contains("'add' applies to an integer"), "\(text.message)")
    }

    @Test func heldObjectsAreComparedAndReadAsTheyAre() async throws {
        let equal = try await failure("two documents with different IDs are expected equal")
        #expect(equal.actual == "false")
        let same = try await failure("a mutable copy is expected to be the same object")
        #expect(same.actual == "false")
        let float = try await failure("a float is expected to read back as the double it was written from")
        #expect(float.actual == "1.4900000095367432", "\(float.actual ?? "")")
        let enumerated = try await failure("an array is expected to enumerate without its last element")
        #expect(enumerated.actual == "[1,2,3]")
        let blob = try await failure("a blob of a document never saved is expected to be readable")
        #expect(blob.actual == "null")
        let unbound = try await failure("a held name that was never bound is used")
        #expect(unbound.actual?.contains("Runner.noSuchObject") == true, "\(unbound.actual ?? "")")
    }

    @Test func aCountdownCountsDown() async throws {
        let countdown = try await failure("a countdown is expected to count up")
        #expect(countdown.actual == "2", "\(countdown.actual ?? "")")
        #expect(countdown.message.hasSuffix("(repeat iteration 1 of 3)"), "\(countdown.message)")
    }

    @Test func heldScopesAndCollectionsNameTheirDatabase() async throws {
        let owner = try await failure("a collection's database is expected to be another object")
        #expect(owner.actual == #"{"isCurrent":true,"name":"db"}"#, "\(owner.actual ?? "")")
        let scope = try await failure("a held scope is expected to keep a deleted collection")
        #expect(scope.actual == "[]")
    }

    @Test func aHandlerThatWritesIsCalledAgain() async throws {
        let twice = try await failure("a handler that writes the document is expected to run once")
        #expect(twice.actual?.contains(#""calls":2"#) == true, "\(twice.actual ?? "")")
    }

    @Test func aListenerWithoutItsTokenStillHears() async throws {
        let heard = try await failure("a listener without its token is expected to hear nothing")
        #expect(heard.actual == #"["a"]"#)
    }

    @Test func blobFilesAndSettingsAreReported() async throws {
        let files = try await failure("a stored blob is expected to leave no file")
        #expect(files.actual == "1")
        let synced = try await failure("a fullSync database is expected to run with normal commits")
        #expect(synced.actual?.contains(#""synchronous":"full""#) == true, "\(synced.actual ?? "")")
        let purged = try await failure("a purged document object is expected to stay")
        #expect(purged.message.contains("was deleted or not found"), "\(purged.message)")
    }
}
