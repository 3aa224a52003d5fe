import Foundation
import Quire
import QuireListener
import QuireSync

extension QuireSession {
    /// The steps on listeners, HTTP requests, one-shot replications and the checkpoint doctor.
    func replicationStep(_ step: Step, in context: StepContext) throws -> SpecValue? {
        switch step {
        case .serve(let name, let readOnly, let keepsConflicts):
            return try serve(name, readOnly: readOnly, keepsConflicts: keepsConflicts)
        case .request(let method, let url, let body):
            return try QuireHTTPRequest.send(method: method, url: try self.url(url), body: body)
        case .replicate(let replication):
            let outcome = try replicate(replication)
            // A measured replication must replicate: one that failed would only look fast.
            if context.discardsResult, case .object(let members) = outcome,
                case .string(let message)? = members["error"]
            {
                throw QuireError(.unexpectedError, "the replication failed: \(message)")
            }
            return outcome
        case .checkpointDoctor(let query):
            return try checkpointDoctor(query)
        default: throw EngineError.misrouted(step, to: "replicationStep")
        }
    }

    func serve(_ name: String, readOnly: Bool, keepsConflicts: Bool) throws -> SpecValue {
        let database = try database(named: name)
        var collections: [Collection] = [try database.defaultCollection()]
        for scope in try database.scopes() {
            for collection in try scope.collections() where !collections.contains(collection) {
                collections.append(collection)
            }
        }
        var config = URLEndpointListenerConfiguration(
            collections: collections, port: 0, networkInterface: "127.0.0.1", readOnly: readOnly)
        config.conflicts = keepsConflicts ? .keep : .refuse
        let listener = URLEndpointListener(config: config)
        try QuireSession.blocking { try await listener.start() }
        listeners.append(listener)
        guard let port = listener.port else {
            throw QuireError(.unexpectedError, "the listener for '\(name)' started without a port")
        }
        let path = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name
        return .object(["url": .string("http://127.0.0.1:\(port)/\(path)")])
    }

    func replicate(_ replication: Step.Replication) throws -> SpecValue {
        let database = try replication.database.map { try self.database(named: $0) } ?? current
        var config = ReplicatorConfiguration(target: URLEndpoint(url: try url(replication.url)))
        switch replication.type {
        case .push: config.replicatorType = .push
        case .pull: config.replicatorType = .pull
        case .pushAndPull: config.replicatorType = .pushAndPull
        }
        config.maxAttempts = 3
        config.maxAttemptWaitTime = 2
        let options = CollectionConfiguration(channels: replication.channels, documentIDs: replication.documentIDs)
        var collections: [Collection] = []
        for name in replication.collections {
            let collection = try collection(name, in: database)
            collections.append(collection)
            config.addCollection(collection, config: options)
        }
        let replicator = Replicator(config: config)
        // The replicator ends a failing run by itself within seconds (three attempts, waits of
        // at most 2 s, request timeouts); this guard is only for one that never stops. It is
        // generous because the replicator runs on Swift concurrency's shared threads, which
        // other blocking work in the same process (a parallel test run under a sanitizer, with
        // one such thread per core) can hold for minutes without anything being wrong.
        let outcome = try BlockingReplication.run(replicator, reset: replication.reset, timeout: 600)
        var starts: [String: SpecValue] = [:]
        var since: [String: SpecValue] = [:]
        var resumed = true
        for collection in collections {
            let report = replicator.checkpointReport(for: collection)
            resumed = resumed && report?.isResumed == true
            starts[collection.fullName] = report.map { .string(QuireSession.name(of: $0.outcome)) } ?? .null
            since[collection.fullName] = report.map { .string($0.remoteSequence) } ?? .null
        }
        // The progress total counts every change read, including documents one side already
        // had, which `pushed` and `pulled` leave out: it tells a full re-read from a resume.
        let examined = replicator.status.progress.total
        return .object([
            "pushed": .int(outcome.pushed), "pulled": .int(outcome.pulled), "resumed": .bool(resumed),
            "checkpoints": .object(starts), "since": .object(since), "examined": .int(Int(clamping: examined)),
            "error": outcome.error.map { .string($0.message) } ?? .null,
            "errorCode": outcome.error.map { .string($0.code.name) } ?? .null,
        ])
    }

    func checkpointDoctor(_ query: Step.DoctorQuery) throws -> SpecValue {
        let database = try query.database.map { try self.database(named: $0) } ?? current
        let diagnosis = try CheckpointDoctor(database: database).diagnose(
            collection: try collection(query.collection, in: database), url: try url(query.url),
            channels: query.channels,
            documentIDs: query.documentIDs)
        return .object([
            "resumes": .bool(diagnosis.willResume),
            "differences": .array(diagnosis.differences.map { .string(QuireSession.name(of: $0)) }),
            "storedCheckpoints": .int(diagnosis.storedCheckpointCount),
        ])
    }

    /// A checkpoint difference's name in spec results: the input that differs.
    private static func name(of difference: CheckpointDifference) -> String {
        switch difference {
        case .noCheckpoint: return "noCheckpoint"
        case .scheme: return "scheme"
        case .host: return "host"
        case .port: return "port"
        case .path: return "path"
        case .collection: return "collection"
        case .channels: return "channels"
        case .filter: return "filter"
        case .filterParameters: return "filterParameters"
        case .documentIDs: return "documentIDs"
        case .uuid: return "uuid"
        case .uuidNotRegenerated: return "uuidNotRegenerated"
        }
    }

    /// Why a replication started where it did, in spec results.
    private static func name(of outcome: CheckpointReport.Outcome) -> String {
        switch outcome {
        case .resumed: return "resumed"
        case .resumedFromCommonSession: return "resumedFromCommonSession"
        case .reset: return "reset"
        case .noLocalCheckpoint: return "noLocalCheckpoint"
        case .noRemoteCheckpoint: return "noRemoteCheckpoint"
        case .noCommonSession: return "noCommonSession"
        case .uuidNotRegenerated: return "uuidNotRegenerated"
        }
    }

    func url(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw QuireError(.invalidParameter, "'\(text)' is not a URL such as http://127.0.0.1:4984/db")
        }
        return url
    }
}
