import Foundation
import Hummingbird

/// What a request path names.
enum ListenerRoute: Equatable, Sendable {
    /// `/`
    case root
    /// `/{db}`
    case database(String)
    /// `/{db}/_changes`
    case changes(String)
    /// `/{db}/_revs_diff`
    case revsDiff(String)
    /// `/{db}/_bulk_get`
    case bulkGet(String)
    /// `/{db}/_bulk_docs`
    case bulkDocs(String)
    /// `/{db}/_ensure_full_commit`
    case ensureFullCommit(String)
    /// `/{db}/_all_docs`
    case allDocs(String)
    /// `/{db}/_local/{id}`
    case localDocument(String, id: String)
    /// `/{db}/{docid}`
    case document(String, id: String)
    /// `/{db}/{docid}/{attachment name, which may hold '/'}`
    case attachment(String, id: String, name: String)

    /// The route of a raw (percent-encoded) path; 400 for bad escapes, 404 for paths that
    /// name nothing served.
    init(path: String) throws {
        let rawPath = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let segments = try rawPath.split(separator: "/", omittingEmptySubsequences: true).map { raw -> String in
            guard let decoded = raw.removingPercentEncoding else {
                throw HTTPFailure.badRequest("Malformed percent-encoding in the path: '\(raw)'")
            }
            return decoded
        }
        guard let keyspace = segments.first else {
            self = .root
            return
        }
        guard !keyspace.hasPrefix("_") else {
            throw HTTPFailure.notFound("Server endpoint '\(keyspace)' is not supported here.")
        }
        guard segments.count > 1 else {
            self = .database(keyspace)
            return
        }
        let second = segments[1]
        let rest = segments.dropFirst(2)
        switch second {
        case "_changes" where rest.isEmpty: self = .changes(keyspace)
        case "_revs_diff" where rest.isEmpty: self = .revsDiff(keyspace)
        case "_bulk_get" where rest.isEmpty: self = .bulkGet(keyspace)
        case "_bulk_docs" where rest.isEmpty: self = .bulkDocs(keyspace)
        case "_ensure_full_commit" where rest.isEmpty: self = .ensureFullCommit(keyspace)
        case "_all_docs" where rest.isEmpty: self = .allDocs(keyspace)
        case "_local" where !rest.isEmpty: self = .localDocument(keyspace, id: rest.joined(separator: "/"))
        default:
            guard !second.hasPrefix("_") else {
                throw HTTPFailure.notFound("Database endpoint '\(second)' is not supported here.")
            }
            if rest.isEmpty {
                self = .document(keyspace, id: second)
            } else {
                self = .attachment(keyspace, id: second, name: rest.joined(separator: "/"))
            }
        }
    }

    /// The methods the route answers.
    var allowedMethods: [HTTPRequest.Method] {
        switch self {
        case .root, .attachment: return [.get, .head]
        case .database, .changes, .allDocs: return [.get, .head, .post]
        case .revsDiff, .bulkGet, .bulkDocs, .ensureFullCommit: return [.post]
        case .localDocument, .document: return [.get, .head, .put, .delete]
        }
    }

    /// The keyspace segment, nil for the root.
    var keyspace: String? {
        switch self {
        case .root: return nil
        case .database(let keyspace), .changes(let keyspace), .revsDiff(let keyspace), .bulkGet(let keyspace),
            .bulkDocs(let keyspace), .ensureFullCommit(let keyspace), .allDocs(let keyspace):
            return keyspace
        case .localDocument(let keyspace, _), .document(let keyspace, _), .attachment(let keyspace, _, _):
            return keyspace
        }
    }

    /// Whether `method` on this route reads a JSON body (whose content type must then be
    /// JSON).
    func takesJSONBody(_ method: HTTPRequest.Method) -> Bool {
        switch self {
        case .revsDiff, .bulkGet, .bulkDocs, .ensureFullCommit: return true
        case .database, .changes, .allDocs: return method == .post
        case .document, .localDocument: return method == .put
        case .root, .attachment: return false
        }
    }

    /// Whether `method` on this route changes documents (refused by a read-only listener).
    /// `_local` writes count: they change the file too (a replicator pulling from a
    /// read-only listener keeps its checkpoint on its own side only, as CouchDB's does with
    /// a read-only source).
    func isDocumentWrite(_ method: HTTPRequest.Method) -> Bool {
        switch self {
        case .bulkDocs: return true
        case .database: return method == .post
        case .document, .localDocument: return method == .put || method == .delete
        default: return false
        }
    }
}
