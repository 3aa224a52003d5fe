import Foundation
import Quire

/// Spec steps run for a client elsewhere: `quire testserver` holds one case's session on the
/// in-process engine for `--engine testkit:` (Quire's extension, `/quire/v1/session/...`), so
/// that the steps the test-kit protocol cannot express still run, in the server's process, on
/// the databases its `/reset` made.
///
/// A step arrives as its spec keyword and arguments (variables substituted, as the runner
/// decoded them) and is decoded here the same way; its result or error goes back as JSON,
/// which ``TestKitSession`` reads. Every call runs on one thread of its own, as the runner
/// runs a case. One session at a time: a test server serves one client.
// @unchecked: `session` is read and written only on `thread`.
package final class HostedSteps: @unchecked Sendable {
    private let thread = SerialThread(name: "quire.hosted-steps")
    private var session: (any EngineSession)?

    /// A host with no session yet.
    package init() {}

    /// Starts a case's session (ending any other) on the databases in `directory`: `request`
    /// is `{database, clock?, fixture?}`, `clock` the start of a manual clock in milliseconds
    /// since 1970, `fixture` a path as `given: fixture:` names one.
    ///
    /// - Throws: ``EngineError`` for a malformed request or a session that cannot start.
    package func start(_ request: [String: JSONValue], directory: URL) async throws {
        try await thread.run { [self] in
            try closeSession()
            guard case .string(let database)? = request["database"] else {
                throw EngineError.unsupported("a hosted session without a 'database' name")
            }
            var given = Given(database: database)
            switch request["clock"] {
            case .int(let start)?: given.clock = .manual(start: Date(timeIntervalSince1970: Double(start) / 1000))
            case .double(let start)?: given.clock = .manual(start: Date(timeIntervalSince1970: start / 1000))
            default: break
            }
            if case .string(let path)? = request["fixture"] { given.fixture = URL(fileURLWithPath: path) }
            session = try QuireEngine().makeSession(directory: directory, given: given, seed: 0)
        }
    }

    /// Answers one call on the session: `step` (``Self/stepRequest(keyword:arguments:context:)``)
    /// answers `{result?}` (no member for a step that returns nothing); `document {collection,
    /// id}` answers a document's state as the extension's `document` route does; `blob
    /// {digest}` answers `{stored}`. A failure of the store or the step is the answer
    /// `{error: {domain, code, message}}`, as the runner would have seen it in process.
    ///
    /// - Throws: ``EngineError`` when no session was started or the call is unknown.
    package func call(_ route: String, _ request: [String: JSONValue]) async throws -> JSONValue {
        try await thread.run { [self] in
            guard let session else {
                throw EngineError.unsupported("a hosted step before /quire/v1/session/start")
            }
            switch route {
            case "step": return Self.answer { try Self.perform(request, on: session) }
            case "document":
                guard case .string(let collection)? = request["collection"], case .string(let id)? = request["id"]
                else {
                    throw EngineError.unsupported("a document call without 'collection' and 'id'")
                }
                let reference = DocumentReference(id, in: CollectionName(fullName: collection))
                return Self.answer { Self.json(try session.documentState(of: reference)) }
            case "blob":
                guard case .string(let digest)? = request["digest"] else {
                    throw EngineError.unsupported("a blob call without 'digest'")
                }
                return Self.answer { .object(["stored": .bool(try session.isBlobStored(digest: digest))]) }
            default: throw EngineError.unsupported("the hosted call '\(route)'")
            }
        }
    }

    /// What `body` answers, or its failure as `{error}`.
    private static func answer(_ body: () throws -> JSONValue) -> JSONValue {
        do {
            return try body()
        } catch {
            return .object(["error": json(error)])
        }
    }

    /// Ends the session, if any: its databases closed, its listeners and replicators stopped.
    package func end() async {
        _ = try? await thread.run { [self] in try closeSession() }
    }

    private func closeSession() throws {
        defer { session = nil }
        try session?.close()
    }

    // MARK: The wire form

    /// The body of a `step` call: the keyword, its arguments and what the step's context says.
    static func stepRequest(keyword: String, arguments: SpecValue, context: StepContext) -> [String: JSONValue] {
        var request: [String: JSONValue] = [
            "keyword": .string(keyword), "arguments": arguments.jsonValue,
            "file": .string(context.location.file), "line": .int(Int64(context.location.line)),
            "column": .int(Int64(context.location.column)), "directory": .string(context.directory.path),
            "specDirectory": .string(context.specDirectory.path), "seed": .string(String(context.seed)),
            "threads": .int(Int64(context.threads)), "discardsResult": .bool(context.discardsResult),
        ]
        if let name = context.objectName { request["objectName"] = .string(name) }
        return request
    }

    private static func perform(_ request: [String: JSONValue], on session: any EngineSession) throws -> JSONValue {
        func text(_ key: String) -> String? {
            if case .string(let value)? = request[key] { return value }
            return nil
        }
        func number(_ key: String) -> Int {
            if case .int(let value)? = request[key] { return Int(value) }
            return 0
        }
        guard let keyword = text("keyword"), let directory = text("directory"),
            let specDirectory = text("specDirectory")
        else { throw EngineError.unsupported("a step call without 'keyword', 'directory' and 'specDirectory'") }
        let specFolder = URL(fileURLWithPath: specDirectory)
        var context = StepContext(
            location: SourceLocation(file: text("file") ?? "", line: number("line"), column: number("column")),
            directory: URL(fileURLWithPath: directory), specDirectory: specFolder,
            seed: text("seed").flatMap { UInt64($0) } ?? 0)
        context.objectName = text("objectName")
        context.threads = max(1, number("threads"))
        context.discardsResult = request["discardsResult"] == .bool(true)
        let step = try StepDecoder.decode(
            keyword: keyword, arguments: SpecValue(json: request["arguments"] ?? .null), specDirectory: specFolder)
        guard let value = try session.perform(step, in: context) else { return .object([:]) }
        return .object(["result": value.jsonValue])
    }

    /// An error as the runner reads it (``CaseExecution``'s rule: other errors than
    /// ``EngineError`` are named by their type).
    static func json(_ error: any Error) -> JSONValue {
        let engineError =
            error as? EngineError
            ?? EngineError(domain: "Swift", code: String(describing: type(of: error)), message: "\(error)")
        return .object([
            "domain": .string(engineError.domain), "code": .string(engineError.code),
            "message": .string(engineError.message),
        ])
    }

    /// The error of a hosted call's answer, if it is one.
    static func error(in answer: JSONValue?) -> EngineError? {
        guard case .object(let members)? = answer, case .object(let error)? = members["error"],
            case .string(let domain)? = error["domain"], case .string(let code)? = error["code"],
            case .string(let message)? = error["message"]
        else { return nil }
        return EngineError(domain: domain, code: code, message: message)
    }

    /// A document's state as the extension's `document` route answers it.
    static func json(_ state: DocumentState) -> JSONValue {
        switch state {
        case .absent: return .object(["state": "absent"])
        case .deleted(let revisionID): return .object(["state": "deleted", "revisionID": .string(revisionID)])
        case .live(let snapshot):
            var members: [String: JSONValue] = [
                "state": "live", "revisionID": .string(snapshot.revisionID), "sequence": .int(Int64(snapshot.sequence)),
                "body": .object(snapshot.properties.mapValues(\.jsonValue)),
            ]
            if let expiration = snapshot.expiration { members["expiration"] = .int(Int64(expiration)) }
            return .object(members)
        }
    }
}
